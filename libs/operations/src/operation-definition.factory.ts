import type { Type } from '@nestjs/common';
import { ContractError } from './errors/contract.error.js';
import {
  CONTRACT_INVALID_ID,
  CONTRACT_INVALID_OPTION,
  invalidIdMessage,
  invalidOptionMessage,
} from './errors/contract.messages.js';
import type { OperationDefinition } from './interfaces/operation-definition.interface.js';
import type {
  Carrier,
  OperationOptions,
  OperationStability,
  TransactionIsolation,
  TransactionSetting,
} from './interfaces/operation-options.interface.js';
import { resultSerializerOf } from './invocation/output/output-contract.js';
import { parseOperationId } from './operation-id.js';
import { operationSemantics } from './operation-semantics.js';
import { ALL_CARRIERS } from './operations.constants.js';
import type { OperationSchemaFactory } from './schema/operation-schema.factory.js';
import { validationStorage } from './invocation/validation-metadata-cache.js';

/** Whether class-validator knows constraints of the class (its own or inherited). */
function isValidatable(type: Type<unknown>): boolean {
  return (
    validationStorage().getTargetValidationMetadatas(type, '', true, false)
      .length > 0
  );
}

const STABILITIES: readonly OperationStability[] = [
  'stable',
  'experimental',
  'deprecated',
  'internal',
];
const ISOLATIONS: readonly TransactionIsolation[] = [
  'READ UNCOMMITTED',
  'READ COMMITTED',
  'REPEATABLE READ',
  'SERIALIZABLE',
];
const NOT_DTOS: readonly unknown[] = [
  Object,
  String,
  Number,
  Boolean,
  Array,
  Function,
  Promise,
  Symbol,
  BigInt,
  undefined,
];

/**
 * Resolves an `@Operation()`'s options into its immutable definition, or
 * throws a `ContractError` naming the method when the contract is invalid.
 */
export function createOperationDefinition(
  options: OperationOptions,
  source: string,
  firstParamType: unknown,
  schemas: OperationSchemaFactory,
): OperationDefinition {
  const parsed = parseOperationId(options.id);
  if (!parsed) {
    throw new ContractError(
      CONTRACT_INVALID_ID,
      invalidIdMessage(options.id, source),
    );
  }
  const invalid = (problem: string) =>
    new ContractError(
      CONTRACT_INVALID_OPTION,
      invalidOptionMessage(options.id, source, problem),
    );

  const stability = options.stability ?? 'stable';
  if (!STABILITIES.includes(stability)) {
    throw invalid(`stability must be one of ${STABILITIES.join(', ')}.`);
  }
  const expose = options.expose ?? ALL_CARRIERS;
  if (
    !Array.isArray(expose) ||
    expose.some((carrier) => !ALL_CARRIERS.includes(carrier as Carrier))
  ) {
    throw invalid(
      `expose must list carriers among ${ALL_CARRIERS.join(', ')}.`,
    );
  }
  const permissions =
    options.permission === undefined
      ? []
      : typeof options.permission === 'string'
        ? [options.permission]
        : options.permission;
  if (
    !Array.isArray(permissions) ||
    permissions.some((p) => typeof p !== 'string' || p.length === 0)
  ) {
    throw invalid('permission must be a non-empty string or a list of them.');
  }
  for (const [key, value] of [
    ['title', options.title],
    ['description', options.description],
  ] as const) {
    if (
      value !== undefined &&
      (typeof value !== 'string' || value.trim().length === 0)
    ) {
      throw invalid(`${key} must be a non-empty string.`);
    }
  }
  if (options.policy !== undefined && typeof options.policy !== 'function') {
    throw invalid('policy must be a function.');
  }
  for (const [key, value] of [
    ['input', options.input],
    ['output', options.output],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw invalid(`${key} must be a class.`);
    }
  }

  if (options.input !== undefined && NOT_DTOS.includes(options.input)) {
    throw invalid(
      `input must be a DTO class with class-validator decorators, not ${options.input.name}.`,
    );
  }
  const input =
    options.input ??
    (NOT_DTOS.includes(firstParamType)
      ? undefined
      : (firstParamType as Type<unknown>));
  if (input && !isValidatable(input)) {
    throw invalid(
      `its input ${input.name} has no class-validator decorators, so no call could be validated; decorate its properties${options.input ? '' : ` (it is the type of the method's first parameter; declare another with 'input')`}.`,
    );
  }
  const output = options.output;
  const semantics = operationSemantics(parsed.verb, options.readOnly === true);
  const transaction = transactionSetting(
    options.transaction === undefined
      ? !semantics.readOnly
      : options.transaction,
  );
  if (transaction === undefined) {
    throw invalid(
      `transaction must be true, false or { isolation } with isolation one of ${ISOLATIONS.join(', ')}.`,
    );
  }
  const definition: OperationDefinition = Object.freeze({
    id: options.id,
    resource: parsed.resource,
    verb: parsed.verb,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined
      ? { description: options.description }
      : {}),
    expose: Object.freeze(stability === 'internal' ? [] : [...new Set(expose)]),
    permissions: Object.freeze([...permissions]),
    policy: options.policy,
    stability,
    semantics,
    input,
    output,
    inputSchema:
      input &&
      schemas.create(input, `Operation '${options.id}' (${source}) input`),
    outputSchema:
      output &&
      schemas.create(output, `Operation '${options.id}' (${source}) output`),
    transaction,
    source,
  });
  // The serializer of its results, with the output schema's shaping plan
  // (one per schema; its check is compiled on the first result).
  resultSerializerOf(definition);
  return definition;
}

/** The resolved `transaction` option, or undefined when it is not valid. */
function transactionSetting(value: unknown): TransactionSetting | undefined {
  if (value === false) {
    return false;
  }
  if (value === true) {
    return Object.freeze({});
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return undefined;
  }
  const { isolation, ...rest } = value as { isolation?: unknown };
  if (
    Object.keys(rest).length > 0 ||
    (isolation !== undefined &&
      !ISOLATIONS.includes(isolation as TransactionIsolation))
  ) {
    return undefined;
  }
  return Object.freeze(
    isolation === undefined
      ? {}
      : { isolation: isolation as TransactionIsolation },
  );
}
