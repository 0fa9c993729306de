import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { OperationException } from '../../errors/operation.exception.js';
import { AllowRawText } from './allow-raw-text.decorator.js';
import { INPUT_LIMITS } from './input-limits.js';
import { MAX_INPUT_DEPTH, sanitizeInput } from './input.sanitizer.js';

/** `containers` nested objects (or arrays) around `leaf`; the outermost is at depth 0. */
function nest(containers: number, kind: 'object' | 'array', leaf: unknown) {
  let value = leaf;
  for (let i = 0; i < containers; i++) {
    value = kind === 'object' ? { a: value } : [value];
  }
  return value;
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The `detail` of the VALIDATION_INVALID_001 that `run` throws. */
function detailOf(run: () => unknown): unknown {
  const error = thrown(run);
  expect(error).toBeInstanceOf(OperationException);
  expect((error as OperationException).failure.code).toBe(
    'VALIDATION_INVALID_001',
  );
  return (error as OperationException).failure.params.detail;
}

/** An object with `count` properties `k0`, `k1`, ... */
function wide(count: number): Record<string, number> {
  const value: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    value[`k${i}`] = i;
  }
  return value;
}

class SpecPartDto {
  @IsString()
  @AllowRawText()
  bytes: string;

  @IsOptional()
  @IsString()
  label?: string;
}

class SpecCatDto {
  @IsString()
  kind: 'cat';

  @IsString()
  @AllowRawText()
  purr: string;
}

class SpecDto {
  @IsString()
  @AllowRawText()
  raw: string;

  @IsOptional()
  @IsString()
  text?: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => SpecPartDto)
  parts?: SpecPartDto[];

  @IsOptional()
  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [{ name: 'cat', value: SpecCatDto }],
    },
    keepDiscriminatorProperty: true,
  })
  pet?: SpecCatDto;

  @IsOptional()
  @IsInt()
  count?: number;

  get total(): number {
    return this.count ?? 0;
  }

  describe(): string {
    return this.raw;
  }
}

describe('sanitizeInput', () => {
  afterEach(() => {
    // A failing pollution test must not leak into the others.
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it('drops an own __proto__ key parsed from JSON', () => {
    const input: unknown = JSON.parse('{"__proto__":{"polluted":1},"a":1}');
    expect(Object.hasOwn(input as object, '__proto__')).toBe(true);

    const result = sanitizeInput(input) as Record<string, unknown>;

    expect(Object.hasOwn(result, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result).toEqual({ a: 1 });
    expect(result.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops constructor and prototype keys', () => {
    const input: unknown = JSON.parse(
      '{"constructor":{"prototype":{"polluted":1}},"prototype":{"polluted":1},"b":"x"}',
    );

    const result = sanitizeInput(input) as Record<string, unknown>;

    expect(Object.keys(result)).toEqual(['b']);
    expect(Object.hasOwn(result, 'constructor')).toBe(false);
    expect(result.constructor).toBe(Object);
  });

  it('drops forbidden keys at any depth, inside arrays too', () => {
    const input: unknown = JSON.parse(`{
      "order": {
        "__proto__": {"polluted": 1},
        "lines": [
          {"sku": "a", "constructor": {"prototype": {"polluted": 1}}},
          [{"prototype": 1, "__proto__": {"polluted": 1}, "qty": 2}]
        ],
        "meta": {"deep": {"deeper": {"__proto__": {"polluted": 1}, "ok": true}}}
      }
    }`);

    const result = sanitizeInput(input);

    expect(result).toEqual({
      order: {
        lines: [{ sku: 'a' }, [{ qty: 2 }]],
        meta: { deep: { deeper: { ok: true } } },
      },
    });
    expect(JSON.stringify(result)).not.toMatch(
      /__proto__|constructor|prototype|polluted/,
    );
  });

  it('does not pollute Object.prototype', () => {
    const input: unknown = JSON.parse(
      '{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":1}},"c":[{"constructor":{"prototype":{"polluted":1}}}]}',
    );

    sanitizeInput(input);

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it('keeps every other value and key', () => {
    const input = {
      s: 'text',
      n: -1.5,
      zero: 0,
      t: true,
      f: false,
      nil: null,
      empty: {},
      list: [1, 'two', null, [3], { four: 4 }],
      proto: 'kept',
      __proto: 'kept',
      Constructor: 'kept',
      PROTOTYPE: 'kept',
      'constructor ': 'kept',
    };

    expect(sanitizeInput(input)).toEqual(input);
  });

  it.each(['text', 0, 42, true, false, null, undefined])(
    'returns the primitive %j unchanged',
    (value) => {
      expect(sanitizeInput(value)).toBe(value);
    },
  );

  it('returns a copy and leaves the input untouched', () => {
    const input: unknown = JSON.parse(
      '{"a":{"b":[1,{"c":2}]},"__proto__":{"x":1}}',
    );
    const before = JSON.stringify(input);

    const result = sanitizeInput(input) as Record<string, unknown>;

    expect(result).not.toBe(input);
    expect(result.a).not.toBe((input as Record<string, unknown>).a);
    expect(JSON.stringify(input)).toBe(before);
    expect(Object.hasOwn(input as object, '__proto__')).toBe(true);
  });

  describe('depth limit', () => {
    // sanitizeInput(value, depth) throws for an object or array at
    // depth >= MAX_INPUT_DEPTH; the outermost container is depth 0, so
    // MAX_INPUT_DEPTH nested containers (deepest at depth MAX_INPUT_DEPTH - 1)
    // are accepted and one more is rejected.
    it('is 32', () => {
      expect(MAX_INPUT_DEPTH).toBe(32);
    });

    it.each(['object', 'array'] as const)(
      'accepts %s containers nested down to depth MAX_INPUT_DEPTH - 1',
      (kind) => {
        const input = nest(MAX_INPUT_DEPTH, kind, 'leaf');

        expect(sanitizeInput(input)).toEqual(input);
      },
    );

    it.each(['object', 'array'] as const)(
      'rejects %s containers nested down to depth MAX_INPUT_DEPTH',
      (kind) => {
        const error = thrown(() =>
          sanitizeInput(nest(MAX_INPUT_DEPTH + 1, kind, 'leaf')),
        );

        expect(error).toBeInstanceOf(OperationException);
        expect((error as OperationException).failure.code).toBe(
          'VALIDATION_INVALID_001',
        );
        expect((error as OperationException).failure.params.detail).toContain(
          String(MAX_INPUT_DEPTH),
        );
      },
    );

    it('counts an empty container at the limit as too deep', () => {
      expect(() => sanitizeInput(nest(MAX_INPUT_DEPTH, 'object', {}))).toThrow(
        OperationException,
      );
      expect(() => sanitizeInput(nest(MAX_INPUT_DEPTH, 'array', []))).toThrow(
        OperationException,
      );
      expect(() =>
        sanitizeInput(nest(MAX_INPUT_DEPTH - 1, 'object', {})),
      ).not.toThrow();
    });

    it('counts mixed object/array nesting', () => {
      let ok: unknown = 'leaf';
      for (let i = 0; i < MAX_INPUT_DEPTH; i++) {
        ok = i % 2 === 0 ? [ok] : { a: ok };
      }
      expect(sanitizeInput(ok)).toEqual(ok);
      expect(() => sanitizeInput({ wrap: ok })).toThrow(OperationException);
      expect(() => sanitizeInput([ok])).toThrow(OperationException);
    });

    it('rejects absurdly deep input without a stack overflow', () => {
      const error = thrown(() =>
        sanitizeInput(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))),
      );

      expect(error).toBeInstanceOf(OperationException);
      expect((error as OperationException).failure.code).toBe(
        'VALIDATION_INVALID_001',
      );
    });

    it('drops a forbidden key before looking into its value', () => {
      const input = {
        ok: 1,
        constructor: nest(MAX_INPUT_DEPTH + 5, 'object', 'leaf'),
      };

      expect(sanitizeInput(input)).toEqual({ ok: 1 });
    });
  });

  describe('size limits', () => {
    it('are 1,000 properties, 1,000 undeclared ones, 10,000 items and 1 MiB strings', () => {
      expect(INPUT_LIMITS).toEqual({
        maxDepth: 32,
        maxProperties: 1_000,
        maxUnknownProperties: 1_000,
        maxItems: 10_000,
        maxStringLength: 1_048_576,
      });
      expect(Object.isFrozen(INPUT_LIMITS)).toBe(true);
    });

    it('accepts an object with maxProperties properties and refuses one more', () => {
      expect(sanitizeInput(wide(1_000))).toEqual(wide(1_000));
      expect(detailOf(() => sanitizeInput(wide(1_001)))).toBe(
        'input has more than 1000 properties',
      );
    });

    it('refuses 80,000 properties without looking at them', () => {
      const input = wide(80_000);
      input.k79_999 = Number.NaN;
      Object.defineProperty(input, 'k5', {
        enumerable: true,
        get: () => {
          throw new Error('read a property');
        },
      });

      expect(detailOf(() => sanitizeInput(input))).toBe(
        'input has more than 1000 properties',
      );
    });

    it('names where a nested object is too wide', () => {
      expect(
        detailOf(() => sanitizeInput({ a: [{ ok: 1 }, wide(1_001)] })),
      ).toBe('a.1 has more than 1000 properties');
    });

    it('accepts an array with maxItems items and refuses one more', () => {
      const items = new Array<number>(10_000).fill(0);
      expect(sanitizeInput({ items })).toEqual({ items });
      expect(detailOf(() => sanitizeInput({ items: [...items, 0] }))).toBe(
        'items has more than 10000 items',
      );
    });

    it('accepts a string of maxStringLength code units and refuses one more', () => {
      const text = 'x'.repeat(1_048_576);
      expect(sanitizeInput({ text })).toEqual({ text });
      expect(
        detailOf(() => sanitizeInput({ deep: { text: `${text}y` } })),
      ).toBe('deep.text is longer than 1048576 characters');
    });

    it('counts the properties no DTO declares over the whole input', () => {
      const parts = (extra: number) =>
        Array.from({ length: 10 }, () => ({ bytes: 'x', ...wide(extra) }));

      expect(() =>
        sanitizeInput({ raw: 'x', parts: parts(100) }, SpecDto),
      ).not.toThrow();
      expect(
        detailOf(() => sanitizeInput({ raw: 'x', parts: parts(101) }, SpecDto)),
      ).toBe(
        'input has more than 1000 properties that its DTOs do not declare',
      );
      // Without a DTO, nothing is whitelisted, so nothing is counted.
      expect(() => sanitizeInput({ parts: parts(101) })).not.toThrow();
    });
  });

  describe('text', () => {
    it.each([
      ['NUL', 'a\u0000b', 'must not contain NUL characters'],
      [
        'a lone high surrogate',
        'a\ud800b',
        'must be well-formed Unicode (it has a lone surrogate)',
      ],
      [
        'a lone low surrogate',
        '\udc00',
        'must be well-formed Unicode (it has a lone surrogate)',
      ],
      [
        'a reversed pair',
        '\udc00\ud800',
        'must be well-formed Unicode (it has a lone surrogate)',
      ],
      [
        'a high surrogate at the end',
        'ok\ud83c',
        'must be well-formed Unicode (it has a lone surrogate)',
      ],
    ])('refuses %s naming the property path', (_, text, problem) => {
      expect(detailOf(() => sanitizeInput({ name: text }))).toBe(
        `name ${problem}`,
      );
      expect(detailOf(() => sanitizeInput({ a: { list: ['ok', text] } }))).toBe(
        `a.list.1 ${problem}`,
      );
      expect(detailOf(() => sanitizeInput(text))).toBe(`input ${problem}`);
    });

    it('accepts surrogate pairs and other control characters', () => {
      const input = { text: 'tea \ud83c\udf75 \t\n\u0001\u007f\uffff' };

      expect(sanitizeInput(input)).toEqual(input);
    });

    it('refuses NUL and lone surrogates in property names', () => {
      expect(detailOf(() => sanitizeInput({ a: { 'x\u0000': 1 } }))).toBe(
        'a property name in a must not contain NUL characters',
      );
      expect(detailOf(() => sanitizeInput({ '\ud800': 1 }))).toBe(
        'a property name in input must be well-formed Unicode (it has a lone surrogate)',
      );
    });
  });

  describe('@AllowRawText()', () => {
    it('lets the marked property and everything inside it take any text', () => {
      const input = {
        raw: 'a\u0000\ud800',
        parts: [{ bytes: '\u0000', label: 'ok' }],
        pet: { kind: 'cat', purr: '\udfff' },
      };

      expect(sanitizeInput(input, SpecDto)).toEqual(input);
    });

    it('checks the properties that are not marked, at any depth', () => {
      expect(
        detailOf(() => sanitizeInput({ raw: 'x', text: '\u0000' }, SpecDto)),
      ).toBe('text must not contain NUL characters');
      expect(
        detailOf(() =>
          sanitizeInput(
            {
              raw: 'x',
              parts: [{ bytes: 'x' }, { bytes: 'x', label: '\ud800' }],
            },
            SpecDto,
          ),
        ),
      ).toBe(
        'parts.1.label must be well-formed Unicode (it has a lone surrogate)',
      );
      expect(detailOf(() => sanitizeInput({ raw: '\u0000' }))).toBe(
        'raw must not contain NUL characters',
      );
    });

    it('follows a discriminator to the subtype only', () => {
      expect(
        detailOf(() =>
          sanitizeInput(
            { raw: 'x', pet: { kind: 'dog', purr: '\u0000' } },
            SpecDto,
          ),
        ),
      ).toBe('pet.purr must not contain NUL characters');
    });

    it('is inherited by subclasses', () => {
      class SubDto extends SpecDto {}

      expect(sanitizeInput({ raw: '\u0000' }, SubDto)).toEqual({
        raw: '\u0000',
      });
    });
  });

  describe('keys that class-transformer would drop without a word', () => {
    it.each([
      'toString',
      'valueOf',
      'hasOwnProperty',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
      '__defineGetter__',
      '__defineSetter__',
      '__lookupGetter__',
      '__lookupSetter__',
    ])('refuses %s as an unknown property, with or without a DTO', (key) => {
      expect(detailOf(() => sanitizeInput({ [key]: 1 }))).toBe(
        `property ${key} should not exist`,
      );
      expect(
        detailOf(() =>
          sanitizeInput({ raw: 'x', parts: [{ [key]: 1 }] }, SpecDto),
        ),
      ).toBe(`property parts.0.${key} should not exist`);
    });

    it("refuses the DTO's methods and getter-only accessors", () => {
      expect(
        detailOf(() => sanitizeInput({ raw: 'x', describe: 'x' }, SpecDto)),
      ).toBe('property describe should not exist');
      expect(
        detailOf(() => sanitizeInput({ raw: 'x', total: 5 }, SpecDto)),
      ).toBe('property total should not exist');
      expect(sanitizeInput({ describe: 'x', total: 5 })).toEqual({
        describe: 'x',
        total: 5,
      });
    });
  });
});

describe('sanitizeInput: the undeclared-property limit is exact', () => {
  const limits = { ...INPUT_LIMITS, maxUnknownProperties: 3 };

  it('accepts maxUnknownProperties undeclared properties and refuses one more, wherever they are', () => {
    expect(() =>
      sanitizeInput({ raw: 'x', a: 1, b: 2, c: 3 }, SpecDto, limits),
    ).not.toThrow();
    expect(
      detailOf(() =>
        sanitizeInput({ raw: 'x', a: 1, b: 2, c: 3, d: 4 }, SpecDto, limits),
      ),
    ).toBe('input has more than 3 properties that its DTOs do not declare');
    expect(
      detailOf(() =>
        sanitizeInput(
          {
            raw: 'x',
            a: 1,
            parts: [
              { bytes: 'x', b: 2 },
              { bytes: 'y', c: 3, d: 4 },
            ],
          },
          SpecDto,
          limits,
        ),
      ),
    ).toBe('input has more than 3 properties that its DTOs do not declare');
  });
});
