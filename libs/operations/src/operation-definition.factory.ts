import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { ContractError } from './errors/contract.error.js';
import {
  CONTRACT_INVALID_ID,
  CONTRACT_INVALID_OPTION,
  invalidIdMessage,
  invalidOptionMessage,
} from './errors/contract.messages.js';
import type {
  OperationDefinition,
  TransactionSetting,
} from './interfaces/operation-contract.js';
import type {
  Carrier,
  OperationOptions,
  OperationStability,
  TransactionIsolation,
} from './interfaces/operation-contract.js';
import { resultSerializerOf } from './invocation/output/output-contract.js';
import { OPERATION_KIND } from './callable.js';
import { parseOperationId } from './operation-id.js';
import { operationResource } from './operation-resource.js';
import { operationAsks } from './asking/operation-asks.js';
import { statedSemantics } from './operation-semantics.js';
import { ALL_CARRIERS } from './operations.constants.js';
import type { OperationSchemaFactory } from './schema/operation-schema.factory.js';

/** Whether class-validator knows constraints of the class (its own or inherited). */
function isValidatable(type: Type<unknown>): boolean {
  return (
    getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)
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

/** The first parameter of a method that takes none. */
export const NO_PARAMETER = Symbol('operations:no-parameter');

/**
 * The input class of the method's first parameter, none when it has no
 * parameter; a parameter whose type is not a class (an inline type, an
 * interface, `any`, a primitive) throws, naming the fix.
 */
function inferredInput(
  firstParamType: unknown,
  invalid: (problem: string) => Error,
): Type<unknown> | undefined {
  if (firstParamType === NO_PARAMETER) {
    return undefined;
  }
  if (NOT_DTOS.includes(firstParamType)) {
    const reflected =
      typeof firstParamType === 'function' ? firstParamType.name : 'undefined';
    throw invalid(
      `the type of its first parameter, the input, is not a class (it reflects as ${reflected}: an inline type, an interface, any, unknown or a primitive), so its calls could be neither validated nor described. Type the parameter with a DTO class with class-validator decorators, or name one with @Operation({ input: SomeDto }); an operation that takes no input has no parameter, or says input: null.`,
    );
  }
  return firstParamType as Type<unknown>;
}

/**
 * Resolves an `@Operation()`'s options into its immutable definition, or
 * throws a `ContractError` naming the method when the contract is invalid.
 */
export function createOperationDefinition(
  options: OperationOptions,
  source: string,
  firstParamType: unknown = NO_PARAMETER,
  schemas: OperationSchemaFactory,
  kind: string = OPERATION_KIND,
): OperationDefinition {
  // Another kind's ids are its carrier's names, checked by the carrier.
  const parsed =
    kind === OPERATION_KIND
      ? parseOperationId(options.id)
      : typeof options.id === 'string' && options.id.length > 0
        ? { resource: kind, verb: options.id }
        : undefined;
  if (!parsed) {
    throw new ContractError(
      CONTRACT_INVALID_ID,
      invalidIdMessage(options.id, source),
    );
  }
  const invalid = (problem: string) =>
    new ContractError(
      CONTRACT_INVALID_OPTION,
      invalidOptionMessage(
        options.id,
        source,
        problem,
        kind === OPERATION_KIND
          ? 'Operation'
          : `${kind[0].toUpperCase()}${kind.slice(1)}`,
      ),
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
    ['input', options.input === null ? undefined : options.input],
    ['output', options.output],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw invalid(
        `${key} must be a class${key === 'input' ? ' or null' : ''}.`,
      );
    }
  }
  for (const key of [
    'readOnly',
    'destructive',
    'idempotent',
    'openWorld',
  ] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw invalid(`${key} must be true or false.`);
    }
  }

  if (options.input != null && NOT_DTOS.includes(options.input)) {
    throw invalid(
      `input must be a DTO class with class-validator decorators, not ${options.input.name}.`,
    );
  }
  const input =
    options.input === null
      ? undefined
      : (options.input ?? inferredInput(firstParamType, invalid));
  if (input && !isValidatable(input)) {
    throw invalid(
      `its input ${input.name} has no class-validator decorators, so no call could be validated; decorate its properties${options.input ? '' : ` (it is the type of the method's first parameter; declare another with 'input')`}.`,
    );
  }
  const output = options.output;
  const semantics = statedSemantics(parsed.verb, options);
  if (!semantics) {
    throw invalid(
      `it is read-only (${options.readOnly === true ? 'readOnly: true' : `the verb '${parsed.verb}'`}) and destructive: true; a call cannot do both. Leave destructive out, or give it a verb that changes state.`,
    );
  }
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
  // A callable's own input class (a completer's request) is validated, never published.
  const inputSchema =
    input && (kind === OPERATION_KIND || !options.input)
      ? schemas.create(input, `Operation '${options.id}' (${source}) input`)
      : undefined;
  const asResource = operationResource(
    options.resource,
    semantics.readOnly,
    inputSchema,
    invalid,
  );
  const asks = operationAsks(
    options,
    schemas,
    `Operation '${options.id}' (${source})`,
    invalid,
  );
  if (
    options.task !== undefined &&
    options.task !== 'optional' &&
    options.task !== 'required'
  ) {
    throw invalid(
      `task must be 'optional' or 'required' (got ${JSON.stringify(options.task)}).`,
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
    ...(asResource ? { asResource } : {}),
    ...(asks ? { asks } : {}),
    ...(options.task !== undefined ? { task: options.task } : {}),
    input,
    output,
    inputSchema,
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
