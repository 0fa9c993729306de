import type { Type } from '@nestjs/common';
import type { OperationOptions } from '../interfaces/operation-contract.js';
import type { OperationSchemaFactory } from '../schema/operation-schema.factory.js';
import type { ClientCapability, OperationAsks } from './client-questions.js';
import { elicitationSchemaOf } from './elicitation-schema.js';

const REQUIRABLE: readonly ClientCapability[] = [
  'elicitation',
  'elicitation.url',
  'sampling',
  'roots',
];

/**
 * `@Operation({ confirm, elicits, requires })` checked: `confirm` a
 * boolean, each DTO of `elicits` a flat object MCP can ask for (its
 * `requestedSchema` made once here), `requires` client capabilities.
 * Undefined when the operation states none of them. A problem is thrown as
 * `invalid` makes it.
 */
export function operationAsks(
  options: OperationOptions,
  schemas: OperationSchemaFactory,
  usedBy: string,
  invalid: (problem: string) => Error,
): OperationAsks | undefined {
  const { confirm, elicits, requires } = options;
  if (
    confirm === undefined &&
    elicits === undefined &&
    requires === undefined
  ) {
    return undefined;
  }
  if (confirm !== undefined && typeof confirm !== 'boolean') {
    throw invalid('confirm must be true or false.');
  }
  if (
    requires !== undefined &&
    (!Array.isArray(requires) ||
      requires.some((each) => !REQUIRABLE.includes(each as ClientCapability)))
  ) {
    throw invalid(
      `requires must list capabilities among ${REQUIRABLE.join(', ')}.`,
    );
  }
  if (
    elicits !== undefined &&
    (!Array.isArray(elicits) ||
      elicits.some((dto) => typeof dto !== 'function'))
  ) {
    throw invalid('elicits must list DTO classes.');
  }
  const forms = new Map<
    Type<unknown>,
    ReturnType<typeof elicitationSchemaOf>
  >();
  for (const dto of elicits ?? []) {
    const schema = schemas.create(dto, `${usedBy} elicits ${dto.name}`);
    if (!schema) {
      throw invalid(
        `it elicits ${dto.name}, which has no class-validator decorators; decorate its properties.`,
      );
    }
    try {
      forms.set(dto, elicitationSchemaOf(schema));
    } catch (error) {
      throw invalid(
        `it elicits ${dto.name}, which cannot be an elicitation form: ${(error as Error).message}.`,
      );
    }
  }
  return Object.freeze({
    confirm,
    elicits: forms,
    requires: Object.freeze([...new Set(requires ?? [])]),
  });
}
