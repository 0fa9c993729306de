import { instanceToPlain } from 'class-transformer';
import type { OperationDefinition } from '../interfaces/operation-definition.interface';
import type { JsonSchema } from '../schema/json-schema.interface';
import { OutputContractError } from './output-contract.error';
import { compileSchemaCheck } from './output-schema.check';
import { compileOutputShape } from './output-shaper';

/** Turns what an operation's method returned into the value a carrier sends. */
export type ResultSerializer = (value: unknown) => unknown;

const serializers = new WeakMap<OperationDefinition, ResultSerializer>();

/**
 * The result serializer of an operation, compiled on first use (at
 * bootstrap, when its definition is created) and kept with the definition.
 */
export function resultSerializerOf(
  definition: OperationDefinition,
): ResultSerializer {
  let serializer = serializers.get(definition);
  if (!serializer) {
    serializer = definition.outputSchema
      ? outputContract(definition, definition.outputSchema)
      : serializeWithClassTransformer;
    serializers.set(definition, serializer);
  }
  return serializer;
}

/**
 * Serialises an operation's result. With an output schema: class-transformer
 * first (the returned class's `@Exclude()`/`@Expose()` apply), then only the
 * properties the schema declares, as JSON (a `Date` becomes its ISO string);
 * a result that still breaks the schema throws `OutputContractError`.
 * Without one: class-transformer's `instanceToPlain`, `undefined` as null.
 */
export function serializeResult(
  definition: OperationDefinition,
  value: unknown,
): unknown {
  return resultSerializerOf(definition)(value);
}

function serializeWithClassTransformer(value: unknown): unknown {
  return value === undefined ? null : instanceToPlain(value);
}

function outputContract(
  definition: OperationDefinition,
  schema: JsonSchema,
): ResultSerializer {
  const shape = compileOutputShape(schema);
  const check = compileSchemaCheck(schema);
  const fail = (problem: string) =>
    new OutputContractError(
      definition.id,
      definition.output?.name ?? 'output',
      problem,
    );
  return (value) => {
    if (value === undefined || value === null) {
      throw fail(`it returned ${String(value)}`);
    }
    let result: unknown;
    try {
      result = asJson(shape(instanceToPlain(value)));
    } catch (error) {
      throw fail(`it cannot be written as JSON (${String(error)})`);
    }
    const problem = check(result);
    if (problem !== undefined) {
      throw fail(problem);
    }
    return result;
  };
}

// The value as a carrier sends it: what `JSON.stringify` writes, read back.
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}
