import { OPERATION_ERRORS, OperationErrorCode } from './error-codes.js';
import { formatFailure } from './failure-text.js';
import { operationFailure } from './operation-failure.js';

const CODES = Object.keys(OPERATION_ERRORS) as OperationErrorCode[];

describe('operationFailure', () => {
  it('builds a frozen failure with the catalogue key and the params', () => {
    const failure = operationFailure('SECURITY_DENIED_004', {
      permission: 'orders.write',
    });

    expect(failure).toEqual({
      code: 'SECURITY_DENIED_004',
      key: 'nestops.errors.SECURITY_DENIED_004',
      params: { permission: 'orders.write' },
    });
    expect(Object.isFrozen(failure)).toBe(true);
    expect(Object.isFrozen(failure.params)).toBe(true);
  });

  it('defaults to no params', () => {
    expect(operationFailure('SECURITY_DENIED_001').params).toEqual({});
  });

  it.each(CODES)('%s follows <AREA>_<KIND>_<NNN>', (code) => {
    expect(code).toMatch(/^[A-Z]+_[A-Z]+_\d{3}$/);
    expect(operationFailure(code).key).toBe(`nestops.errors.${code}`);
  });
});

describe('formatFailure', () => {
  it('renders a missing permission as its code and the permission it names', () => {
    expect(
      formatFailure(
        operationFailure('SECURITY_DENIED_004', { permission: 'orders.write' }),
      ),
    ).toBe("SECURITY_DENIED_004: Permission 'orders.write' is missing.");
  });

  it('renders validation failures with their detail', () => {
    expect(
      formatFailure(
        operationFailure('VALIDATION_INVALID_001', {
          detail: 'amount must not be less than 1',
        }),
      ),
    ).toBe(
      'VALIDATION_INVALID_001: Invalid input: amount must not be less than 1',
    );
  });

  it('renders numeric params', () => {
    expect(
      formatFailure(operationFailure('INTERNAL_TIMEOUT_001', { seconds: 30 })),
    ).toBe('INTERNAL_TIMEOUT_001: The operation did not finish within 30 s.');
    expect(
      formatFailure(
        operationFailure('INTERNAL_ERROR_001', { correlationId: 'c-42' }),
      ),
    ).toBe(
      'INTERNAL_ERROR_001: An unexpected error occurred (correlation id c-42).',
    );
  });

  it('keeps params that the text does not name out of it', () => {
    const text = formatFailure(
      operationFailure('SECURITY_DENIED_001', {
        detail: 'secret internals',
        permission: 'orders.write',
      }),
    );

    expect(text).toBe('SECURITY_DENIED_001: Access denied.');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('orders.write');
  });

  it('leaves a placeholder without a param literal', () => {
    expect(formatFailure(operationFailure('SECURITY_DENIED_004'))).toBe(
      "SECURITY_DENIED_004: Permission '{permission}' is missing.",
    );
    expect(
      formatFailure(
        operationFailure('SECURITY_DENIED_004', { other: 'orders.write' }),
      ),
    ).toBe("SECURITY_DENIED_004: Permission '{permission}' is missing.");
  });

  it('does not fill placeholders from inherited params', () => {
    // `{permission}` is the only placeholder; an inherited property must not
    // count as a param.
    const params = Object.create({ permission: 'inherited' }) as Record<
      string,
      string
    >;
    expect(formatFailure(operationFailure('SECURITY_DENIED_004', params))).toBe(
      "SECURITY_DENIED_004: Permission '{permission}' is missing.",
    );
  });

  it('inserts param values verbatim (no replacement patterns, no second pass)', () => {
    expect(
      formatFailure(
        operationFailure('VALIDATION_INVALID_001', {
          detail: "$& $1 $$ $' {detail}",
        }),
      ),
    ).toBe("VALIDATION_INVALID_001: Invalid input: $& $1 $$ $' {detail}");
  });

  it.each(CODES)(
    '%s renders as "<CODE>: <text>" with every placeholder filled',
    (code) => {
      const names = [...OPERATION_ERRORS[code].matchAll(/\{(\w+)\}/g)].map(
        ([, name]) => name,
      );
      const params = Object.fromEntries(
        names.map((name) => [name, `<${name}>`]),
      );

      const text = formatFailure(operationFailure(code, params));

      expect(text.startsWith(`${code}: `)).toBe(true);
      expect(text).not.toMatch(/\{\w+\}/);
      for (const name of names) {
        expect(text).toContain(`<${name}>`);
      }
    },
  );
});
