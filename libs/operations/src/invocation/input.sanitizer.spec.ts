import { OperationException } from '../errors/operation.exception';
import { MAX_INPUT_DEPTH, sanitizeInput } from './input.sanitizer';

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
});
