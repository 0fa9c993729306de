import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import type { McpRequest } from '../../protocol/mcp-message.js';
import type { ParamHeader } from '../../headers/param-headers.js';
import { paramHeadersRefusal } from './param-headers.check.js';
import { headerValue } from './header-value.js';

/** The methods whose `Mcp-Name` header names what they act on. */
const NAMED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/**
 * The checks 2026-07-28 puts on a POST's headers, run on a 2026 request once
 * its `_meta` is valid: `MCP-Protocol-Version` must be present and equal the
 * `_meta` version, `Mcp-Method` the method, `Mcp-Name` the tool's name on
 * `tools/call`, the prompt's on `prompts/get`, the URI on
 * `resources/read` (after decoding `=?base64?...?=`) and the task's id on
 * `tasks/get`, `tasks/update`, `tasks/cancel`, and on `tools/call`
 * its `Mcp-Param-*` headers its arguments (`paramHeadersRefusal`, for the
 * tool's declared ones that `paramHeadersOf` gives). Header names are
 * case-insensitive (Node lowercases them); values are compared exactly after
 * trimming spaces and tabs. Returns the `-32020` of the first that fails, or
 * undefined.
 */
export function requestHeadersRefusal(
  headers: IncomingHttpHeaders,
  request: McpRequest,
  paramHeadersOf: ParamHeadersOf = () => undefined,
): McpProtocolError | undefined {
  // What `Mcp-Name` mirrors: a call's tool, a prompt's name, a read's URI, a task's id.
  const name =
    request.method === 'resources/read'
      ? request.params.uri
      : request.method.startsWith('tasks/')
        ? request.params.taskId
        : request.params.name;
  const args = request.params.arguments;
  const declared =
    request.method === 'tools/call' && typeof name === 'string'
      ? paramHeadersOf(name)
      : undefined;
  return (
    headerRefusal(
      headers,
      'MCP-Protocol-Version',
      // A 2026 request's `_meta` is set: its headers are checked only then.
      request.meta!.protocolVersion,
      false,
    ) ??
    headerRefusal(headers, 'Mcp-Method', request.method, false) ??
    (NAMED_METHODS.has(request.method) &&
    (typeof name === 'string' || headers['mcp-name'] !== undefined)
      ? headerRefusal(headers, 'Mcp-Name', name, true)
      : undefined) ??
    (declared && declared.length > 0
      ? paramHeadersRefusal(headers, declared, isRecord(args) ? args : {})
      : undefined)
  );
}

/** The `Mcp-Param-*` headers of a tool by its name; undefined: no such tool. */
export type ParamHeadersOf = (
  toolName: string,
) => readonly ParamHeader[] | undefined;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The check that comes first on a 2026 request (a message with an id, `id`
 * here), before its `_meta` and its version are judged: when the body names
 * a protocol version (a string, `bodyVersion`), `MCP-Protocol-Version` must
 * be present and equal it.
 * So a header and a body that disagree are a HeaderMismatch (`-32020`)
 * whatever either names, and only a version both name can be refused as one
 * this server does not speak (`-32022`). Returns the refusal, or undefined
 * when there is nothing to refuse here.
 */
export function versionHeaderRefusal(
  headers: IncomingHttpHeaders,
  bodyVersion: string | undefined,
  id: JsonRpcId | null,
): McpProtocolError | undefined {
  return bodyVersion === undefined || id === null
    ? undefined
    : headerRefusal(headers, 'MCP-Protocol-Version', bodyVersion, false);
}

/** The `-32020` of a header that is missing or does not match `body`. */
function headerRefusal(
  headers: IncomingHttpHeaders,
  header: string,
  body: unknown,
  encodable: boolean,
): McpProtocolError | undefined {
  const value = headerValue(headers, header, encodable);
  if (value === undefined) {
    return McpProtocolError.headerMismatch(`the ${header} header is missing`);
  }
  if (value instanceof McpProtocolError) {
    return value;
  }
  return value === body
    ? undefined
    : McpProtocolError.headerMismatch(
        `the ${header} header value ${JSON.stringify(value)} does not match the body's ${JSON.stringify(body ?? null)}`,
      );
}
