import type { IncomingHttpHeaders } from 'node:http';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import type { ParamHeader } from '../../headers/param-headers.js';
import { headerValue } from './header-value.js';

/**
 * SEP-2243's check of a 2026 `tools/call`'s `Mcp-Param-<name>` headers
 * against its arguments, before the call runs: an argument that is given
 * (not null) needs its header, equal to it once decoded (`=?base64?...?=`
 * decoded, a plain value only visible ASCII; an integer compared as a
 * number, a boolean as `true`/`false`); an argument absent or null must
 * have none. Returns the `-32020` of the first that fails, or undefined.
 */
export function paramHeadersRefusal(
  headers: IncomingHttpHeaders,
  declared: readonly ParamHeader[],
  args: Readonly<Record<string, unknown>>,
): McpProtocolError | undefined {
  for (const param of declared) {
    const header = `Mcp-Param-${param.name}`;
    const argument = Object.hasOwn(args, param.property)
      ? args[param.property]
      : undefined;
    const given = argument !== undefined && argument !== null;
    const value = headerValue(headers, header, true);
    if (value === undefined) {
      if (given) {
        return McpProtocolError.headerMismatch(
          `the ${header} header is missing; it mirrors the argument ${param.property}`,
        );
      }
      continue;
    }
    if (value instanceof McpProtocolError) {
      return value;
    }
    if (!given) {
      return McpProtocolError.headerMismatch(
        `the ${header} header is sent but the argument ${param.property} is ${argument === null ? 'null' : 'absent'}`,
      );
    }
    if (!matches(value, argument, param.type)) {
      return McpProtocolError.headerMismatch(
        `the ${header} header value ${JSON.stringify(value)} does not match the argument ${param.property}, ${JSON.stringify(argument)}`,
      );
    }
  }
  return undefined;
}

/** Whether a decoded header value says `argument`. */
function matches(
  value: string,
  argument: unknown,
  type: ParamHeader['type'],
): boolean {
  if (type === 'integer' && typeof argument === 'number') {
    return /^-?\d+(?:\.\d+)?$/.test(value) && Number(value) === argument;
  }
  return (
    (typeof argument === 'string' ||
      typeof argument === 'number' ||
      typeof argument === 'boolean') &&
    value === String(argument)
  );
}
