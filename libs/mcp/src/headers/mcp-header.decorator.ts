import 'reflect-metadata';

/** Where `@McpHeader()` keeps, on a DTO class, its properties' header names. */
export const MCP_HEADERS = Symbol('nestops:mcp-headers');

/**
 * Mirrors an input property in an HTTP header (SEP-2243): its tool's
 * input schema marks the property `"x-mcp-header": name`, a 2026-07-28
 * client sends its value as `Mcp-Param-<name>` too, so a gateway can route
 * or rate-limit on it, and the server refuses a call whose header and
 * argument disagree (`-32020`, before the operation runs). `name` is an
 * HTTP token (letters, digits, ``!#$%&'*+-.^_`|~``), unique in its DTO
 * ignoring case; the property is a string, an integer or a boolean, on the
 * operation's input DTO itself. Startup fails otherwise, naming the
 * operation.
 *
 * @example
 * class ReportInput {
 *   @McpHeader('Region')
 *   @IsString()
 *   region: string;
 * }
 *
 * @publicApi
 */
export function McpHeader(name: string): PropertyDecorator {
  return (target, property) => {
    const owner = target.constructor;
    const inherited = (Reflect.getMetadata(MCP_HEADERS, owner) ??
      {}) as Readonly<Record<string | symbol, string>>;
    Reflect.defineMetadata(
      MCP_HEADERS,
      { ...inherited, [property]: name },
      owner,
    );
  };
}

/** The header names `@McpHeader()` gave a DTO class's properties (its parents' too). */
export function mcpHeadersOf(dto: Function): Readonly<Record<string, string>> {
  return (Reflect.getMetadata(MCP_HEADERS, dto) ?? {}) as Readonly<
    Record<string, string>
  >;
}
