/**
 * A JSON Schema (2020-12) object as published to carriers.
 *
 * @publicApi
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}
