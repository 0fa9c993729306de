import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  isDateString,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { JsonSchema } from './json-schema.interface.js';
import { JSONSchema } from './json-schema.decorator.js';
import { OperationSchemaFactory } from './operation-schema.factory.js';

enum Color {
  Red = 'red',
  Green = 'green',
}

enum Priority {
  Low = 1,
  High = 2,
}

class Product {
  @IsUUID()
  id: string;

  @IsString()
  @MinLength(2)
  @MaxLength(10)
  name: string;
}

class Line {
  @ValidateNested()
  @Type(() => Product)
  product: Product;

  @IsInt()
  @Min(1)
  @Max(99)
  quantity: number;
}

class Address {
  @IsString()
  @MinLength(1)
  street: string;

  @IsOptional()
  @IsString()
  @MaxLength(10)
  zip?: string;
}

class PlaceOrder {
  @ValidateNested()
  @Type(() => Address)
  address: Address;

  @ValidateNested({ each: true })
  @Type(() => Line)
  @IsArray()
  lines: Line[];

  @IsEnum(Color)
  color: Color;

  @IsEmail()
  email: string;

  @IsUUID()
  requestId: string;

  @IsDateString()
  due: string;

  @IsBoolean()
  gift: boolean;

  @IsInt()
  @Min(0)
  @Max(100)
  discount: number;

  @IsOptional()
  @IsString()
  note?: string;
}

class Ticket {
  @IsEnum(Priority)
  priority: Priority;
}

/** Same constraints as `@IsInt() @Min(0)`, decorators in the other order. */
class Counter {
  @Min(0)
  @IsInt()
  count: number;
}

class Schedule {
  @IsDateString()
  at: string;
}

class NoRules {
  name: string;
}

class Bare {
  value: string;
}

class HoldsBare {
  @ValidateNested()
  @Type(() => Bare)
  bare: Bare;
}

// Two unrelated DTOs that happen to share a class name, as `CreateDto` in
// two feature modules would.
const FirstPayload = (() => {
  class Payload {
    @IsString()
    first: string;
  }
  return Payload;
})();
const SecondPayload = (() => {
  class Payload {
    @IsInt()
    second: number;
  }
  return Payload;
})();

const GOOD_ORDER = {
  address: { street: '1 Main St', zip: '12345' },
  lines: [
    {
      product: { id: '3f1e2d4c-5b6a-4789-8abc-def012345678', name: 'Widget' },
      quantity: 2,
    },
    {
      product: { id: '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a', name: 'Gadget' },
      quantity: 99,
    },
  ],
  color: 'green',
  email: 'bob@example.com',
  requestId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  due: '2024-05-01T10:00:00.000Z',
  gift: false,
  discount: 0,
};

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

function property(schema: JsonSchema | undefined, name: string): JsonSchema {
  const found = schema?.properties?.[name];
  if (!found) {
    throw new Error(`no property ${name} in ${JSON.stringify(schema)}`);
  }
  return found;
}

function def(schema: JsonSchema | undefined, name: string): JsonSchema {
  const found = schema?.$defs?.[name];
  if (!found) {
    throw new Error(`no $defs/${name} in ${JSON.stringify(schema)}`);
  }
  return found;
}

function nodes(schema: unknown): Record<string, unknown>[] {
  if (Array.isArray(schema)) {
    return schema.flatMap(nodes);
  }
  if (typeof schema !== 'object' || schema === null) {
    return [];
  }
  const node = schema as Record<string, unknown>;
  return [node, ...Object.values(node).flatMap(nodes)];
}

function withChange(
  change: (order: typeof GOOD_ORDER & Record<string, unknown>) => void,
): unknown {
  const order = structuredClone(GOOD_ORDER) as typeof GOOD_ORDER &
    Record<string, unknown>;
  change(order);
  return order;
}

describe('OperationSchemaFactory', () => {
  // Constructed after the DTO classes above registered their metadata.
  let factory: OperationSchemaFactory;
  let order: JsonSchema | undefined;

  beforeAll(() => {
    factory = new OperationSchemaFactory();
    order = factory.create(PlaceOrder);
  });

  it('returns undefined for a class without validation metadata', () => {
    expect(factory.create(NoRules)).toBeUndefined();
    expect(factory.create(class Anonymous {})).toBeUndefined();
  });

  it('describes the DTO as an object with its properties', () => {
    expect(order?.type).toBe('object');
    expect(Object.keys(order?.properties ?? {}).sort()).toEqual(
      [
        'address',
        'color',
        'discount',
        'due',
        'email',
        'gift',
        'lines',
        'note',
        'requestId',
      ].sort(),
    );
  });

  describe('nested DTOs', () => {
    it('refers to a nested DTO by #/$defs/<Name>', () => {
      expect(property(order, 'address')).toEqual({ $ref: '#/$defs/Address' });
    });

    it('describes an array of nested DTOs as items referring to #/$defs/<Name>', () => {
      const lines = property(order, 'lines');
      expect(lines.type).toBe('array');
      expect(lines.items).toEqual({ $ref: '#/$defs/Line' });
    });

    it('places every referenced DTO, transitively, in its own $defs', () => {
      expect(Object.keys(order?.$defs ?? {}).sort()).toEqual([
        'Address',
        'Line',
        'Product',
      ]);
      expect(property(def(order, 'Line'), 'product')).toEqual({
        $ref: '#/$defs/Product',
      });
      expect(def(order, 'Product').type).toBe('object');
    });

    it('resolves every $ref inside the schema itself', () => {
      const refs = nodes(order)
        .map((node) => node.$ref)
        .filter((ref) => ref !== undefined);

      expect(refs.length).toBeGreaterThanOrEqual(3);
      for (const ref of refs) {
        expect(ref).toMatch(/^#\/\$defs\/[A-Za-z0-9_]+$/);
        const name = String(ref).slice('#/$defs/'.length);
        expect(order?.$defs).toHaveProperty([name]);
      }
    });

    it('gives a nested DTO the same schema as on its own', () => {
      const line = factory.create(Line);
      const { $defs, ...lineWithoutDefs } = line ?? {};

      expect(def(order, 'Line')).toEqual(lineWithoutDefs);
      expect(Object.keys($defs ?? {})).toEqual(['Product']);
      expect(def(line, 'Product')).toEqual(def(order, 'Product'));
    });

    it('has no $defs when nothing is referenced', () => {
      const product = factory.create(Product);
      expect(product).toBeDefined();
      expect(product).not.toHaveProperty('$defs');
    });

    it('fails clearly when a nested class has no validation metadata', () => {
      expect(() => factory.create(HoldsBare, 'Operation x.y input')).toThrow(
        /^CONTRACT_VALIDATION_003: Operation x\.y input refers to the nested class 'Bare'/,
      );
    });
  });

  it('keeps a string enum', () => {
    expect(property(order, 'color')).toMatchObject({
      type: 'string',
      enum: ['red', 'green'],
    });
  });

  it('keeps exactly the values of a numeric enum', () => {
    const priority = property(factory.create(Ticket), 'priority');

    expect([...(priority.enum as unknown[])].sort()).toEqual([1, 2]);
    expect(
      priority.type === undefined ||
        priority.type === 'number' ||
        priority.type === 'integer',
    ).toBe(true);
  });

  it('excludes optional fields from required', () => {
    expect([...(order?.required ?? [])].sort()).toEqual(
      [
        'address',
        'color',
        'discount',
        'due',
        'email',
        'gift',
        'lines',
        'requestId',
      ].sort(),
    );
    expect(def(order, 'Address').required).toEqual(['street']);
    expect(property(def(order, 'Address'), 'zip')).toEqual({
      type: 'string',
      maxLength: 10,
    });
  });

  it('keeps numeric bounds and integer types', () => {
    expect(property(order, 'discount')).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 100,
    });
    expect(property(def(order, 'Line'), 'quantity')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 99,
    });
  });

  it('keeps string length bounds', () => {
    expect(property(def(order, 'Product'), 'name')).toEqual({
      type: 'string',
      minLength: 2,
      maxLength: 10,
    });
  });

  it('keeps string formats', () => {
    expect(property(order, 'email')).toEqual({
      type: 'string',
      format: 'email',
    });
    expect(property(order, 'requestId')).toEqual({
      type: 'string',
      format: 'uuid',
    });
    expect(property(def(order, 'Product'), 'id')).toEqual({
      type: 'string',
      format: 'uuid',
    });
    expect(property(order, 'gift')).toEqual({ type: 'boolean' });
  });

  it('keeps @IsDateString as the date-time format', () => {
    expect(property(factory.create(Schedule), 'at')).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
  });

  it('closes every object with additionalProperties: false', () => {
    const objects = nodes(order).filter((node) => node.type === 'object');

    expect(objects).toHaveLength(4);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
    }
  });

  it('returns a deeply frozen schema', () => {
    const schema = factory.create(PlaceOrder);

    for (const node of nodes(schema)) {
      expect(Object.isFrozen(node)).toBe(true);
    }
    expect(Object.isFrozen(schema?.required)).toBe(true);
    expect(() => {
      (schema as Record<string, unknown>).type = 'array';
    }).toThrow(TypeError);
    expect(() => {
      def(schema, 'Line').additionalProperties = true;
    }).toThrow(TypeError);
  });

  it('is not changed by a previous create', () => {
    const first = factory.create(PlaceOrder);
    const second = factory.create(PlaceOrder);

    expect(second).toEqual(first);
    expect(factory.create(Product)).toEqual(def(first, 'Product'));
  });

  it('gives every use of a class the same schema object, whatever uses it', () => {
    const first = factory.create(PlaceOrder, 'Operation a');
    expect(factory.create(PlaceOrder, 'Operation b')).toBe(first);
    expect(factory.create(NoRules)).toBeUndefined();
    expect(new OperationSchemaFactory().create(PlaceOrder)).not.toBe(first);
  });

  it('refuses a DTO whose class name several classes have, rather than publish a merged schema', () => {
    // class-validator-jsonschema keys schemas by class name: both classes
    // named Payload would get one merged schema requiring both fields.
    for (const type of [FirstPayload, SecondPayload]) {
      expect(() => factory.create(type, 'Operation a.b input')).toThrow(
        /^CONTRACT_CONFLICT_002: Operation a\.b input uses the DTO class name 'Payload', which several classes have/,
      );
    }
  });

  describe('with ajv (JSON Schema 2020-12, strict)', () => {
    it.each([
      ['PlaceOrder', PlaceOrder],
      ['Line', Line],
      ['Product', Product],
      ['Address', Address],
      ['Ticket', Ticket],
      ['Counter', Counter],
      ['Schedule', Schedule],
    ])('compiles the schema of %s', (_name, type) => {
      const schema = factory.create(type);

      expect(schema).toBeDefined();
      expect(() => newAjv().compile(schema as object)).not.toThrow();
    });

    it('accepts a good instance', () => {
      const validate = newAjv().compile(order as object);

      expect(validate(GOOD_ORDER), JSON.stringify(validate.errors)).toBe(true);
      expect(
        validate(
          withChange((o) => {
            o.note = 'ring twice';
            delete (o.address as { zip?: string }).zip;
          }),
        ),
        JSON.stringify(validate.errors),
      ).toBe(true);
    });

    it.each<[string, (o: typeof GOOD_ORDER & Record<string, unknown>) => void]>(
      [
        ['an unknown property', (o) => (o.admin = true)],
        [
          'an unknown nested property',
          (o) => Object.assign(o.address, { country: 'NL' }),
        ],
        [
          'an unknown property in an array item',
          (o) => Object.assign(o.lines[0], { price: 1 }),
        ],
        ['a wrong enum value', (o) => (o.color = 'blue')],
        ['an enum key instead of its value', (o) => (o.color = 'Red')],
        ['a number below the minimum', (o) => (o.discount = -1)],
        ['a number above the maximum', (o) => (o.discount = 101)],
        ['a fraction for an integer', (o) => (o.discount = 1.5)],
        ['a nested item below its minimum', (o) => (o.lines[1].quantity = 0)],
        [
          'a nested item with a bad uuid',
          (o) => (o.lines[0].product.id = 'not-a-uuid'),
        ],
        [
          'a nested item that is too short',
          (o) => (o.lines[0].product.name = 'W'),
        ],
        [
          'a nested item without a required field',
          (o) => delete (o.lines[0] as { product?: unknown }).product,
        ],
        [
          'a nested item that is not an object',
          (o) => ((o.lines as unknown[])[0] = 'widget'),
        ],
        ['lines that are not an array', (o) => ((o.lines as unknown) = {})],
        ['a bad email', (o) => (o.email = 'bob')],
        ['a bad uuid', (o) => (o.requestId = '123')],
        ['a string for a boolean', (o) => ((o.gift as unknown) = 'yes')],
        [
          'a missing required field',
          (o) => delete (o as { email?: string }).email,
        ],
        [
          'an optional field that is too long',
          (o) => (o.address.zip = '12345678901'),
        ],
      ],
    )('rejects %s', (_case, change) => {
      const validate = newAjv().compile(order as object);

      expect(validate(withChange(change))).toBe(false);
    });

    it('validates a numeric enum by its values', () => {
      const validate = newAjv().compile(factory.create(Ticket) as object);

      expect(validate({ priority: Priority.Low })).toBe(true);
      expect(validate({ priority: Priority.High })).toBe(true);
      expect(validate({ priority: 3 })).toBe(false);
      expect(validate({ priority: 'Low' })).toBe(false);
    });

    it('keeps an integer an integer whatever the decorator order', () => {
      const validate = newAjv().compile(factory.create(Counter) as object);

      expect(validate({ count: 3 })).toBe(true);
      expect(validate({ count: -1 })).toBe(false);
      expect(validate({ count: 1.5 })).toBe(false);
    });

    it.each([
      '2024-05-01T10:00:00.000Z',
      '2024-05-01T10:00:00Z',
      '2024-05-01T10:00:00+02:00',
      'soon',
      'x2024-05-01T10:00:00.000Zx',
    ])('agrees with class-validator on the date string %j', (value) => {
      const validate = newAjv().compile(factory.create(Schedule) as object);

      expect(validate({ at: value })).toBe(isDateString(value));
    });
  });
});

describe('OperationSchemaFactory with many DTO classes', () => {
  it('compares each class with its own ancestors only: generation grows linearly', () => {
    let comparisons = 0;
    // Counts every `x instanceof Rule` class-validator-jsonschema evaluates.
    class Rule {
      static [Symbol.hasInstance](value: unknown): boolean {
        comparisons++;
        return Function.prototype[Symbol.hasInstance].call(this, value);
      }
    }
    IsString()(Rule.prototype, 'base');
    const classes = Array.from({ length: 300 }, (_, index) => {
      const dto = {
        [`ManyDto${index}`]: class extends Rule {},
      }[`ManyDto${index}`];
      IsInt()(dto.prototype, 'a');
      Min(index)(dto.prototype, 'a');
      return dto;
    });
    const factory = new OperationSchemaFactory();
    comparisons = 0;
    for (const dto of classes) {
      expect(factory.create(dto)?.properties).toEqual({
        a: { type: 'integer', minimum: classes.indexOf(dto) },
        base: { type: 'string' },
      });
    }
    // All the app's rules at once: about 300 x 601 comparisons.
    expect(comparisons).toBeLessThan(10 * classes.length);
  });
});

class DefaultLine {
  @IsString()
  sku: string = 'none';
}

class TicketDefaults {
  @IsString()
  title: string;

  @IsOptional()
  @IsString()
  priority: string = 'normal';

  @IsOptional()
  @IsInt()
  limit = 20;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags: string[] = [];

  @IsOptional()
  @IsDateString()
  createdAt: string = new Date(0).toISOString();

  @IsOptional()
  @ValidateNested()
  @Type(() => DefaultLine)
  line?: DefaultLine = new DefaultLine();

  @IsOptional()
  @JSONSchema({ default: 'low' })
  @IsString()
  level: string = 'high';
}

class NeedsArguments {
  @IsOptional()
  @IsString()
  mode: string = 'fast';

  constructor(required: string) {
    if (required === undefined) {
      throw new Error('an argument is required');
    }
  }
}

class ThrowsOnConstruction {
  @IsOptional()
  @IsString()
  mode: string = 'fast';

  constructor() {
    throw new Error('not here');
  }
}

describe('defaults from property initialisers', () => {
  it('publishes JSON initialisers as defaults, keeps an explicit @JSONSchema default, skips class instances', () => {
    const schema = new OperationSchemaFactory().create(TicketDefaults)!;
    const properties = schema.properties as Record<string, JsonSchema>;

    expect(properties.title).not.toHaveProperty('default');
    expect(properties.priority.default).toBe('normal');
    expect(properties.limit.default).toBe(20);
    expect(properties.tags.default).toEqual([]);
    expect(properties.createdAt.default).toBe('1970-01-01T00:00:00.000Z');
    expect(properties.line).not.toHaveProperty('default');
    expect(properties.level.default).toBe('low');
    expect(
      (schema.$defs as Record<string, JsonSchema>).DefaultLine,
    ).toMatchObject({
      properties: { sku: { default: 'none' } },
    });
    expect(newAjv().validateSchema(schema)).toBe(true);
    expect(newAjv().compile(schema)({ title: 'x' })).toBe(true);
  });

  it('publishes none for a class whose constructor needs arguments or throws', () => {
    const factory = new OperationSchemaFactory();
    for (const type of [NeedsArguments, ThrowsOnConstruction]) {
      const schema = factory.create(type as never)!;
      expect(
        (schema.properties as Record<string, JsonSchema>).mode,
      ).not.toHaveProperty('default');
    }
  });
});
