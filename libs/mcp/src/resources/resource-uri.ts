import type { JsonSchema, OperationDefinition } from '@nestops/operations';

/** The `{name}` expressions of a URI template. */
const EXPRESSION = /\{([A-Za-z0-9_]+)\}/g;

/**
 * The URIs of a URI template, as a matcher: each variable takes one or more
 * characters of one path segment (no `/`, `?` or `#`, which a level-1
 * expansion percent-encodes), decoded.
 */
export interface UriMatcher {
  /** The variables' values in `uri`, decoded; undefined when it does not match. */
  match(uri: string): Readonly<Record<string, string>> | undefined;
  /** The template's literal characters: the more, the more specific. */
  readonly literals: number;
}

/** The matcher of `template`, a URI or a level-1 URI template. */
export function uriMatcher(template: string): UriMatcher {
  const names: string[] = [];
  let pattern = '';
  let last = 0;
  for (const found of template.matchAll(EXPRESSION)) {
    pattern += escape(template.slice(last, found.index));
    pattern += '([^/?#]+)';
    names.push(found[1]);
    last = found.index + found[0].length;
  }
  pattern += escape(template.slice(last));
  const regex = new RegExp(`^${pattern}$`);
  return {
    literals: template.replace(EXPRESSION, '').length,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) {
        return undefined;
      }
      const values: Record<string, string> = {};
      for (const [index, name] of names.entries()) {
        try {
          values[name] = decodeURIComponent(found[index + 1]);
        } catch {
          return undefined; // a malformed escape names no resource
        }
      }
      return values;
    },
  };
}

/**
 * The input of a read: each variable as the JSON type its input property
 * has (`integer`, `number`, `boolean`; anything else a string), as a tool
 * call's arguments would carry it; undefined when a value is not of that
 * type (then the URI names no resource).
 */
export function inputOfVariables(
  operation: OperationDefinition,
  values: Readonly<Record<string, string>>,
): Record<string, unknown> | undefined {
  const properties = operation.inputSchema?.properties ?? {};
  const input: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(values)) {
    const value = converted(text, typeOf(properties[name]));
    if (value === undefined) {
      return undefined;
    }
    input[name] = value;
  }
  return input;
}

/** The JSON type a property's schema gives it (the first of a list but `null`). */
function typeOf(schema: JsonSchema | undefined): string | undefined {
  const type = schema?.type;
  return Array.isArray(type)
    ? (type as readonly string[]).find((name) => name !== 'null')
    : typeof type === 'string'
      ? type
      : undefined;
}

function converted(text: string, type: string | undefined): unknown {
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : undefined;
    case 'number': {
      const number = text.trim() === '' ? NaN : Number(text);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    default:
      return text;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
