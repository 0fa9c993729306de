import { IS_DATE_STRING, IS_ENUM, MAX, MIN } from 'class-validator';
import type { validationMetadataArrayToSchemas } from 'class-validator-jsonschema';
import type { ValidationMetadata } from '../nest/class-validator.adapter.js';

/** Converters by constraint name, as class-validator-jsonschema takes them. */
type ISchemaConverters = NonNullable<
  NonNullable<
    Parameters<typeof validationMetadataArrayToSchemas>[1]
  >['additionalConverters']
>;

const NUMERIC_KEY = /^-?\d+(\.\d+)?$/;

/**
 * Where `class-validator-jsonschema`'s default converters lose what
 * class-validator checks, these say it exactly.
 */
export const SCHEMA_CONVERTERS: ISchemaConverters = {
  /** An enum's values; a numeric enum's reverse-mapped names are not values. */
  [IS_ENUM]: (meta: ValidationMetadata) => {
    const enumObject = meta.constraints[0] as Record<string, string | number>;
    const values = Object.entries(enumObject)
      .filter(([key]) => !NUMERIC_KEY.test(key))
      .map(([, value]) => value);
    const types = new Set(values.map((value) => typeof value));
    return {
      enum: values,
      ...(types.size === 1
        ? { type: types.has('number') ? 'number' : 'string' }
        : {}),
    };
  },
  /** Bounds leave the type to `@IsInt()` / `@IsNumber()`, whatever the decorator order. */
  [MIN]: (meta: ValidationMetadata) => ({
    minimum: meta.constraints[0],
  }),
  [MAX]: (meta: ValidationMetadata) => ({
    maximum: meta.constraints[0],
  }),
  /** An ISO 8601 date-time, which `@IsDateString()` accepts. */
  [IS_DATE_STRING]: () => ({ type: 'string', format: 'date-time' }),
};
