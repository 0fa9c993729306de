import { IsOptional, IsString } from 'class-validator';
import { ContractError } from './errors/contract.error.js';
import type { OperationOptions } from './interfaces/operation-contract.js';
import { createOperationDefinition } from './operation-definition.factory.js';
import { OperationSchemaFactory } from './schema/operation-schema.factory.js';

class GetReportDto {
  @IsString()
  id!: string;

  @IsOptional()
  @IsString()
  format?: string;
}

function define(
  options: Omit<OperationOptions, 'input'>,
  input: typeof GetReportDto | null = GetReportDto,
) {
  return createOperationDefinition(
    { ...options, input },
    'ReportsService.get',
    undefined,
    new OperationSchemaFactory(),
  );
}

describe('the resource option of @Operation()', () => {
  it('publishes a URI template with its variables in order', () => {
    expect(
      define({ id: 'reports.get', resource: 'reports://{id}/{format}' })
        .asResource,
    ).toEqual({ uri: 'reports://{id}/{format}', variables: ['id', 'format'] });
  });

  it('keeps a stated MIME type, and no resource when not asked', () => {
    expect(
      define({
        id: 'reports.get',
        resource: { uri: 'reports://{id}', mimeType: 'text/markdown' },
      }).asResource,
    ).toEqual({
      uri: 'reports://{id}',
      variables: ['id'],
      mimeType: 'text/markdown',
    });
    expect(define({ id: 'reports.get' })).not.toHaveProperty('asResource');
  });

  it('takes a fixed URI for an operation with no required input', () => {
    expect(
      define({ id: 'reports.list', resource: 'reports://recent' }, null)
        .asResource,
    ).toEqual({ uri: 'reports://recent', variables: [] });
  });

  it.each([
    [
      { id: 'reports.create', resource: 'reports://{id}' },
      "resource 'reports://{id}' is read, so the operation must be read-only (a get or list verb, or readOnly: true).",
    ],
    [
      { id: 'reports.get', resource: 'reports://{id}/{owner}' },
      "resource 'reports://{id}/{owner}' names {owner}, which is not a property of its input (id, format).",
    ],
    [
      { id: 'reports.get', resource: 'reports://all' },
      "resource 'reports://all' does not give the required input 'id'; name it in the URI template (reports://all/{id}).",
    ],
    [
      { id: 'reports.get', resource: 'reports://{+id}' },
      "resource 'reports://{+id}' has the expression {+id}; a template variable is a plain {name} of letters, digits and _.",
    ],
    [
      { id: 'reports.get', resource: 'reports://{id}/{id}' },
      "resource 'reports://{id}/{id}' names {id} twice.",
    ],
    [
      { id: 'reports.get', resource: 'reports://{id}}' },
      "resource 'reports://{id}}' has an unbalanced { or }.",
    ],
    [
      { id: 'reports.get', resource: 'reports/{id}' },
      'resource must be a URI with a scheme (orders://recent), a URI template (orders://{id}) or { uri, mimeType }.',
    ],
    [
      {
        id: 'reports.get',
        resource: { uri: 'reports://{id}', mimeType: 'markdown' },
      },
      'resource\'s mimeType must be a MIME type such as text/plain, not "markdown".',
    ],
  ] as const)('stops startup for %j', (options, problem) => {
    const define_ = () => define(options as Omit<OperationOptions, 'input'>);
    expect(define_).toThrow(ContractError);
    expect(define_).toThrow(
      `Operation '${options.id}' on ReportsService.get: ${problem}`,
    );
  });
});
