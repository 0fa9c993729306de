import type { JsonSchema } from '../schema/json-schema.interface.js';

/** The keywords MCP's elicitation schemas allow, by property type. */
const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: [
    'title',
    'description',
    'default',
    'enum',
    'enumNames',
    'oneOf',
    'minLength',
    'maxLength',
    'format',
  ],
  number: ['title', 'description', 'default', 'minimum', 'maximum'],
  integer: ['title', 'description', 'default', 'minimum', 'maximum'],
  boolean: ['title', 'description', 'default'],
  array: ['title', 'description', 'default', 'items', 'minItems', 'maxItems'],
};

/** The string formats MCP's elicitation schemas allow. */
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * The `requestedSchema` of an elicitation for a DTO whose JSON Schema is
 * `schema`: a flat object of strings, numbers, integers, booleans, enums
 * (single or multi-select, titled or not) with their defaults, as MCP
 * allows, each property keeping only the keywords MCP defines. Titles
 * given with `@JSONSchema` (`oneOf`, `items.anyOf`) replace the `enum` of
 * `@IsIn`, as MCP's titled enums have none. Throws a message naming the
 * first property that cannot be asked so.
 */
export function elicitationSchemaOf(schema: JsonSchema): JsonSchema {
  const root = schema as Record<string, unknown>;
  if (root.type !== 'object' || !isRecord(root.properties)) {
    throw new Error('its schema is not an object with properties');
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [name, value] of Object.entries(root.properties)) {
    properties[name] = propertySchema(name, value);
  }
  const required = Array.isArray(root.required) ? root.required : [];
  return Object.freeze({
    type: 'object',
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
  }) as JsonSchema;
}

function propertySchema(name: string, value: unknown): JsonSchema {
  if (!isRecord(value)) {
    throw new Error(`its property '${name}' has no schema`);
  }
  const type = typeOf(value);
  const allowed = type === undefined ? undefined : KEYWORDS[type];
  if (!allowed) {
    throw new Error(
      `its property '${name}' is ${describe(value)}; an elicitation asks only for strings, numbers, integers, booleans and enums (one value or several)`,
    );
  }
  if (
    type === 'string' &&
    'format' in value &&
    !FORMATS.has(String(value.format))
  ) {
    throw new Error(
      `its property '${name}' has the format '${String(value.format)}'; an elicitation allows email, uri, date and date-time`,
    );
  }
  if (type === 'array' && !isEnumItems(value.items)) {
    throw new Error(
      `its property '${name}' is a list of something else than strings of an enum; an elicitation's lists are multi-selects`,
    );
  }
  const kept: Record<string, unknown> = { type };
  for (const keyword of allowed) {
    // A titled enum's values are its oneOf consts: with `enum` beside them
    // the SDK clients read an untitled enum and drop the titles.
    if (value[keyword] !== undefined && !(keyword === 'enum' && value.oneOf)) {
      kept[keyword] = value[keyword];
    }
  }
  if (type === 'string' && Array.isArray(kept.oneOf)) {
    // A titled single-select: `@IsIn`'s enum gives way to the titles.
    delete kept.enum;
    delete kept.enumNames;
  }
  if (type === 'array') {
    kept.items = enumItems(value.items as Record<string, unknown>);
  }
  return kept as JsonSchema;
}

/** A multi-select's items as MCP has them: titled (`anyOf`) or a typed `enum`. */
function enumItems(items: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(items.anyOf)
    ? { anyOf: items.anyOf }
    : { type: 'string', enum: items.enum };
}

/** The property's type; an enum of strings with no type is a string. */
function typeOf(value: Record<string, unknown>): string | undefined {
  if (typeof value.type === 'string') {
    return value.type;
  }
  if (
    value.type === undefined &&
    Array.isArray(value.enum) &&
    value.enum.every((each) => typeof each === 'string')
  ) {
    return 'string';
  }
  return undefined;
}

function isEnumItems(items: unknown): boolean {
  if (!isRecord(items)) {
    return false;
  }
  if (Array.isArray(items.anyOf)) {
    return items.anyOf.every(
      (each) => isRecord(each) && typeof each.const === 'string',
    );
  }
  return (
    Array.isArray(items.enum) &&
    items.enum.every((each) => typeof each === 'string')
  );
}

function describe(value: Record<string, unknown>): string {
  if ('$ref' in value) {
    return 'a nested object';
  }
  return typeof value.type === 'string'
    ? `of type ${value.type}`
    : 'of no single type';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
