import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../../schema/json-schema.interface.js';

/** Returns why a value breaks the schema, or undefined when it conforms. */
export type SchemaCheck = (value: unknown) => string | undefined;

let ajv: Ajv2020 | undefined;

/** One validator for every check, made when the first check is compiled. */
function validator(): Ajv2020 {
  return (ajv ??= addFormats(new Ajv2020({ strict: true, allErrors: true })));
}

/**
 * Compiles the check of a published output schema with ajv's JSON Schema
 * 2020-12 validator in strict mode, the way clients check a result's
 * `structuredContent` against a tool's `outputSchema`.
 */
export function compileSchemaCheck(schema: JsonSchema): SchemaCheck {
  const validate = validator().compile(schema);
  return (value) =>
    validate(value)
      ? undefined
      : validator().errorsText(validate.errors, { dataVar: '(root)' });
}

const checks = new WeakMap<JsonSchema, SchemaCheck>();

/**
 * The check of `schema`, shared by everything that uses the same schema
 * object (every operation whose output is the same DTO class) and compiled
 * on its first value, not before: compiling costs about a millisecond a
 * schema, which an app with many operations would otherwise pay at startup
 * for checks most of its calls never reach.
 */
export function schemaCheckOf(schema: JsonSchema): SchemaCheck {
  let check = checks.get(schema);
  if (!check) {
    let compiled: SchemaCheck | undefined;
    check = (value) => (compiled ??= compileSchemaCheck(schema))(value);
    checks.set(schema, check);
  }
  return check;
}
