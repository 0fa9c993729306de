import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { JsonSchema } from '../../schema/json-schema.interface.js';
import { OperationSchemaFactory } from '../../schema/operation-schema.factory.js';
import { compileOutputShape } from './output-shaper.js';

class ShapedLine {
  @IsString()
  sku: string;

  @IsInt()
  quantity: number;
}

class ShapedCustomer {
  @IsString()
  name: string;

  @IsOptional()
  @IsString()
  phone?: string;
}

class ShapedOrder {
  @IsInt()
  id: number;

  @ValidateNested()
  @Type(() => ShapedCustomer)
  customer: ShapedCustomer;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ShapedLine)
  lines: ShapedLine[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ShapedCustomer)
  payer?: ShapedCustomer;

  @IsOptional()
  @JSONSchema({ type: ['string', 'null'] })
  @IsString()
  comment?: string | null;
}

class ShapedCategory {
  @IsString()
  name: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => ShapedCategory)
  @IsArray()
  children?: ShapedCategory[];
}

describe('compileOutputShape', () => {
  let factory: OperationSchemaFactory;
  let shape: (value: unknown) => unknown;

  beforeAll(() => {
    factory = new OperationSchemaFactory();
    shape = compileOutputShape(factory.create(ShapedOrder) as JsonSchema);
  });

  it('keeps exactly the declared properties, at the top, in nested DTOs and in array items', () => {
    expect(
      shape({
        id: 1,
        passwordHash: 'x',
        customer: { name: 'Ada', phone: '123', email: 'ada@example.com' },
        lines: [
          { sku: 'a', quantity: 1, cost: 0.3 },
          { sku: 'b', quantity: 2 },
        ],
      }),
    ).toEqual({
      id: 1,
      customer: { name: 'Ada', phone: '123' },
      lines: [
        { sku: 'a', quantity: 1 },
        { sku: 'b', quantity: 2 },
      ],
    });
  });

  it('leaves out an optional property that is undefined, or null where its schema refuses null', () => {
    const shaped = shape({
      id: 1,
      customer: { name: 'Ada', phone: null },
      lines: [],
      payer: null,
      comment: undefined,
    });

    expect(shaped).toEqual({ id: 1, customer: { name: 'Ada' }, lines: [] });
    expect(shaped).not.toHaveProperty('payer');
  });

  it('keeps null where the schema allows it, and where the property is required', () => {
    expect(
      shape({ id: null, customer: null, lines: [], comment: null }),
    ).toEqual({ id: null, customer: null, lines: [], comment: null });
  });

  it('keeps what it cannot shape as it is, for the check to judge', () => {
    expect(shape(undefined)).toBeUndefined();
    expect(shape('text')).toBe('text');
    expect(shape({ id: 1, customer: 'Ada', lines: { sku: 'a' } })).toEqual({
      id: 1,
      customer: 'Ada',
      lines: { sku: 'a' },
    });
  });

  it('does not read inherited properties', () => {
    const value = Object.assign(Object.create({ id: 9 }), {
      customer: { name: 'Ada' },
      lines: [],
    });

    expect(shape(value)).toEqual({ customer: { name: 'Ada' }, lines: [] });
  });

  it('follows a DTO that refers to itself', () => {
    const tree = compileOutputShape(
      factory.create(ShapedCategory) as JsonSchema,
    );

    expect(
      tree({
        name: 'a',
        id: 1,
        children: [{ name: 'b', id: 2, children: [{ name: 'c', id: 3 }] }],
      }),
    ).toEqual({
      name: 'a',
      children: [{ name: 'b', children: [{ name: 'c' }] }],
    });
  });
});
