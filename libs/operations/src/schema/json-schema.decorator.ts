import { JSONSchema as classValidatorJsonSchema } from 'class-validator-jsonschema';
import type { JsonSchema } from './json-schema.interface.js';

/**
 * Adds JSON Schema keywords to a DTO property's published schema (or, on
 * the class, to the class's own): `@JSONSchema({ description: 'The name on
 * the invoice' })`. The keywords are merged over what the class-validator
 * decorators produce, in the operation's input and output schemas and in
 * every `$defs` entry of the class.
 *
 * It is class-validator-jsonschema's own `@JSONSchema`, the copy this
 * library generates schemas with (its metadata key is private to each copy,
 * so a second copy in the app would be ignored), typed with JSON Schema
 * 2020-12 keywords rather than OpenAPI 3.0's.
 *
 * A property's `description` is translated per language by the message
 * catalogue key `dto.<class name>.<property>`.
 *
 * @publicApi
 */
export const JSONSchema: (
  schema: JsonSchema,
) => PropertyDecorator & ClassDecorator = classValidatorJsonSchema as (
  schema: JsonSchema,
) => PropertyDecorator & ClassDecorator;
