import type { JsonSchema } from '@nestops/operations';

/**
 * The values an argument's schema allows when they are a closed set (the
 * `enum` of `@IsIn()` and `@IsEnum()`, the two of `@IsBoolean()`), as
 * strings; undefined otherwise.
 */
export function closedSetOf(
  schema: JsonSchema | undefined,
): readonly string[] | undefined {
  if (!schema) {
    return undefined;
  }
  if (Array.isArray(schema.enum)) {
    return schema.enum.map(String);
  }
  if (schema.type === 'boolean') {
    return ['true', 'false'];
  }
  return undefined;
}

/** The values that start with `typed`, ignoring case. */
export function startingWith(
  values: readonly string[],
  typed: string,
): readonly string[] {
  const prefix = typed.toLowerCase();
  return values.filter((value) => value.toLowerCase().startsWith(prefix));
}
