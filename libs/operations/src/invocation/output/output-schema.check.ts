import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../../schema/json-schema.interface.js';

/** Returns why a value breaks the schema, or undefined when it conforms. */
export type SchemaCheck = (value: unknown) => string | undefined;

const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }));

/**
 * Compiles, once, the check of a published output schema with ajv's JSON
 * Schema 2020-12 validator in strict mode, the way clients check a result's
 * `structuredContent` against a tool's `outputSchema`.
 */
export function compileSchemaCheck(schema: JsonSchema): SchemaCheck {
  const validate = ajv.compile(schema);
  return (value) =>
    validate(value)
      ? undefined
      : ajv.errorsText(validate.errors, { dataVar: '(root)' });
}
