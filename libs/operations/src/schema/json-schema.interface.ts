/**
 * A JSON Schema (2020-12) object as published to carriers.
 *
 * @publicApi
 */
export interface JsonSchema {
  /** The JSON type(s) a value must have (`object`, `string`...). */
  type?: string | string[];
  /** The schema of each named property of an object. */
  properties?: Record<string, JsonSchema>;
  /** The properties an object must have. */
  required?: string[];
  /** The schema of each item of an array. */
  items?: JsonSchema;
  /** A reference to a definition, `#/$defs/<name>`. */
  $ref?: string;
  /** The definitions `$ref` points to (nested DTO classes). */
  $defs?: Record<string, JsonSchema>;
  /** Whether, or under which schema, properties not named are allowed. */
  additionalProperties?: boolean | JsonSchema;
  /** Any other JSON Schema keyword (`minimum`, `format`, `description`...). */
  [keyword: string]: unknown;
}
