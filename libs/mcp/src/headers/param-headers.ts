import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import { ContractError } from '@nestops/operations/internal';
import {
  INVALID_MCP_HEADER,
  invalidMcpHeaderMessage,
} from './param-headers.messages.js';
import { mcpHeadersOf } from './mcp-header.decorator.js';

/** One input property mirrored in an `Mcp-Param-<name>` header. */
export interface ParamHeader {
  /** The input property. */
  readonly property: string;
  /** `<name>` of `Mcp-Param-<name>`, as `@McpHeader()` gives it. */
  readonly name: string;
  /** The property's JSON type. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** RFC 9110's `token`: what a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

/**
 * The properties of an operation's input mirrored in headers, read from
 * its input DTO's `@McpHeader()`s and checked against its input schema
 * once, at startup: a `ContractError` names the operation and the
 * property for a name that is not an HTTP token, one used twice
 * (ignoring case), a property its schema does not have, or one that is
 * not a string, an integer or a boolean.
 */
export function paramHeadersOf(
  operation: OperationDefinition,
): readonly ParamHeader[] {
  if (!operation.input) {
    return [];
  }
  const declared = Object.entries(mcpHeadersOf(operation.input));
  const properties = operation.inputSchema?.properties ?? {};
  const seen = new Map<string, string>();
  return declared.map(([property, name]) => {
    const fail = (problem: string) =>
      new ContractError(
        INVALID_MCP_HEADER,
        invalidMcpHeaderMessage(operation, property, name, problem),
      );
    if (!TOKEN.test(name)) {
      throw fail(
        "it is not an HTTP token: use letters, digits and !#$%&'*+-.^_`|~, no spaces, colons or other characters",
      );
    }
    const twin = seen.get(name.toLowerCase());
    if (twin !== undefined) {
      throw fail(
        `property '${twin}' has it too (names are compared ignoring case)`,
      );
    }
    seen.set(name.toLowerCase(), property);
    if (!Object.hasOwn(properties, property)) {
      throw fail('the input schema has no such property');
    }
    const type = primitiveType(properties[property]);
    if (type === undefined) {
      throw fail(
        'only a string, an integer or a boolean property can be mirrored (give it @IsString(), @IsInt() or @IsBoolean())',
      );
    }
    return { property, name, type };
  });
}

/** `schema` with `"x-mcp-header"` on each mirrored property; `schema` itself when none is. */
export function withParamHeaders(
  schema: JsonSchema,
  headers: readonly ParamHeader[],
): JsonSchema {
  if (headers.length === 0 || !schema.properties) {
    return schema;
  }
  const properties = { ...schema.properties };
  for (const { property, name } of headers) {
    properties[property] = { ...properties[property], 'x-mcp-header': name };
  }
  return Object.freeze({ ...schema, properties: Object.freeze(properties) });
}

/** A property's one type of `string`, `integer` and `boolean` (beside `null`), or undefined. */
function primitiveType(
  schema: JsonSchema | undefined,
): ParamHeader['type'] | undefined {
  const types = (
    Array.isArray(schema?.type) ? schema.type : [schema?.type]
  ).filter((type) => type !== 'null');
  return types.length === 1 && TYPES.has(String(types[0]))
    ? (types[0] as ParamHeader['type'])
    : undefined;
}
