import { IsString } from 'class-validator';
import { ContractError } from './errors/contract.error.js';
import type { OperationOptions } from './interfaces/operation-contract.js';
import { createOperationDefinition } from './operation-definition.factory.js';
import { OperationSchemaFactory } from './schema/operation-schema.factory.js';

function define(options: OperationOptions) {
  return createOperationDefinition(
    options,
    'ReportsService.method',
    undefined,
    new OperationSchemaFactory(),
  );
}

describe('the transaction option of @Operation()', () => {
  it.each([
    ['reports.create', undefined, {}],
    ['reports.delete', undefined, {}],
    ['reports.rebuild', undefined, {}],
    ['reports.list', undefined, false],
    ['reports.get', undefined, false],
    ['reports.create', false, false],
    ['reports.list', true, {}],
    ['reports.create', {}, {}],
    [
      'reports.create',
      { isolation: 'SERIALIZABLE' },
      { isolation: 'SERIALIZABLE' },
    ],
  ] as const)(
    '%s with transaction %j resolves to %j',
    (id, transaction, expected) => {
      expect(define({ id, transaction }).transaction).toEqual(expected);
    },
  );

  it('defaults to none for a custom verb marked readOnly', () => {
    expect(define({ id: 'reports.search', readOnly: true }).transaction).toBe(
      false,
    );
  });

  it.each([
    'yes',
    1,
    null,
    [],
    { isolation: 'SNAPSHOT' },
    { isolation: 'serializable' },
    { isolation: 'SERIALIZABLE', retries: 3 },
  ])(
    'stops startup for transaction %j with CONTRACT_VALIDATION_002',
    (transaction) => {
      const define_ = () =>
        define({
          id: 'reports.create',
          transaction: transaction as OperationOptions['transaction'],
        });

      expect(define_).toThrow(ContractError);
      expect(define_).toThrow(
        "Operation 'reports.create' on ReportsService.method: transaction must be true, false or { isolation } with isolation one of READ UNCOMMITTED, READ COMMITTED, REPEATABLE READ, SERIALIZABLE.",
      );
    },
  );
});

describe('the definitions of many operations', () => {
  it('share one output schema (and so its check) when they share an output DTO', () => {
    class Report {}
    IsString()(Report.prototype, 'name');
    const schemas = new OperationSchemaFactory();
    const [first, ...others] = Array.from({ length: 3 }, (_, index) =>
      createOperationDefinition(
        { id: `reports.get${index}`, output: Report },
        'ReportsService.method',
        undefined,
        schemas,
      ),
    );
    expect(first.outputSchema?.required).toEqual(['name']);
    for (const other of others) {
      expect(other.outputSchema).toBe(first.outputSchema);
    }
  });
});

describe('the title and description of @Operation()', () => {
  it('keeps them on the definition as given', () => {
    const definition = define({
      id: 'reports.list',
      title: 'List reports',
      description: 'Lists the reports of the tenant.',
    });
    expect(definition).toMatchObject({
      title: 'List reports',
      description: 'Lists the reports of the tenant.',
    });
  });

  it('leaves them out when not given', () => {
    const definition = define({ id: 'reports.list' });
    expect(definition).not.toHaveProperty('title');
    expect(definition).not.toHaveProperty('description');
  });

  it.each([
    ['title', ''],
    ['title', '   '],
    ['title', 42],
    ['description', ''],
    ['description', ['Lists reports']],
  ])('stops startup for %s %j with CONTRACT_VALIDATION_002', (key, value) => {
    const define_ = () =>
      define({ id: 'reports.list', [key]: value } as OperationOptions);
    expect(define_).toThrow(ContractError);
    expect(define_).toThrow(
      `Operation 'reports.list' on ReportsService.method: ${key} must be a non-empty string.`,
    );
  });
});
