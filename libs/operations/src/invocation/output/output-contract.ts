import { instanceToPlain } from 'class-transformer';
import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import type { JsonSchema } from '../../schema/json-schema.interface.js';
import { OutputContractError } from './output-contract.error.js';
import { schemaCheckOf } from './output-schema.check.js';
import { compileOutputShape, type OutputShape } from './output-shaper.js';

/**
 * A result as a carrier sends it: the JSON value, and its JSON text.
 *
 * @publicApi
 */
export interface SerializedResult {
  /** The result as a JSON value (class instances made plain). */
  readonly value: unknown;
  /** `value` as JSON text, written once: carriers send it as it is. */
  readonly json: string;
  /**
   * What the method returned when it wrapped its result for its carrier
   * (an MCP tool result with an image): `value` is the wrapper's
   * structured part, the rest is the carrier's to read. Undefined otherwise.
   */
  readonly carried?: object;
}

/** Turns what an operation's method returned into what a carrier sends. */
export type ResultSerializer = (value: unknown) => SerializedResult;

const serializers = new WeakMap<OperationDefinition, ResultSerializer>();

/**
 * The result serializer of an operation, made on first use (at bootstrap,
 * when its definition is created) and kept with the definition. Its shaping
 * plan and its check belong to the output schema, so operations that share
 * an output DTO share them; the check is compiled on the first result.
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
 * Without one: class-transformer's `instanceToPlain` (bytes, a `Buffer` or
 * a `Uint8Array`, kept as they are), `undefined` as null.
 */
export function serializeResult(
  definition: OperationDefinition,
  value: unknown,
): SerializedResult {
  return resultSerializerOf(definition)(value);
}

const NULL_RESULT: SerializedResult = Object.freeze({
  value: null,
  json: 'null',
});

function serializeWithClassTransformer(value: unknown): SerializedResult {
  if (value === undefined) {
    return NULL_RESULT;
  }
  // Bytes stay the same object (a resource sends them as they are).
  const plain = value instanceof Uint8Array ? value : toPlain(value);
  return { value: plain, json: JSON.stringify(plain) ?? 'null' };
}

/**
 * class-transformer's `instanceToPlain`, skipped for a value that is
 * already plain JSON data (what it would copy unchanged): it is the
 * costliest step of a small call.
 */
function toPlain(value: unknown): unknown {
  return isPlainData(value, 0) ? value : instanceToPlain(value);
}

/** Deeper than this, class-transformer decides. */
const PLAIN_DEPTH = 32;

/**
 * Strings, numbers, booleans, null and undefined, in arrays and objects
 * whose prototype is `Object.prototype` or null: nothing class-transformer
 * would change, nothing with a `toJSON` or a class of its own.
 */
function isPlainData(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) {
    return true;
  }
  if (depth >= PLAIN_DEPTH) {
    return false;
  }
  if (Array.isArray(value)) {
    // A loop rather than `every`: no closure per array on every call.
    for (let index = 0; index < value.length; index++) {
      if (!isPlainData(value[index], depth + 1)) {
        return false;
      }
    }
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return false;
  }
  for (const key in value) {
    if (!isPlainData((value as Record<string, unknown>)[key], depth + 1)) {
      return false;
    }
  }
  return true;
}

const shapes = new WeakMap<JsonSchema, OutputShape>();

/** The shaping plan of `schema`, compiled once per schema object. */
function outputShapeOf(schema: JsonSchema): OutputShape {
  let shape = shapes.get(schema);
  if (!shape) {
    shape = compileOutputShape(schema);
    shapes.set(schema, shape);
  }
  return shape;
}

function outputContract(
  definition: OperationDefinition,
  schema: JsonSchema,
): ResultSerializer {
  const shape = outputShapeOf(schema);
  const check = schemaCheckOf(schema);
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
    let json: string | undefined;
    try {
      json = JSON.stringify(shape(toPlain(value)));
    } catch (error) {
      throw fail(`it cannot be written as JSON (${String(error)})`);
    }
    // The value as a carrier sends it: what `JSON.stringify` wrote, read back.
    const result: unknown = json === undefined ? undefined : JSON.parse(json);
    const problem = check(result);
    if (problem !== undefined) {
      throw fail(problem);
    }
    return { value: result, json: json ?? 'null' };
  };
}
