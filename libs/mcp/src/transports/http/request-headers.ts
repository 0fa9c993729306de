import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import type { McpRequest } from '../../protocol/mcp-message.js';

/** `=?base64?<value>?=`: a header value that is not plain ASCII, encoded. */
const ENCODED = /^=\?base64\?(.*)\?=$/s;
const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain header value may hold. */
const PLAIN = /^[\t\x20-\x7e]*$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The checks 2026-07-28 puts on a POST's headers, run on a 2026 request once
 * its `_meta` is valid: `MCP-Protocol-Version` must be present and equal the
 * `_meta` version, `Mcp-Method` the method, and on `tools/call` `Mcp-Name`
 * the tool's name, on `resources/read` the URI (after decoding `=?base64?...?=`). Header names are
 * case-insensitive (Node lowercases them); values are compared exactly after
 * trimming spaces and tabs. Returns the `-32020` of the first that fails, or
 * undefined.
 */
export function requestHeadersRefusal(
  headers: IncomingHttpHeaders,
  request: McpRequest,
): McpProtocolError | undefined {
  // What `Mcp-Name` mirrors: a call's tool, a read's URI.
  const name =
    request.method === 'resources/read'
      ? request.params.uri
      : request.params.name;
  return (
    headerRefusal(
      headers,
      'MCP-Protocol-Version',
      // A 2026 request's `_meta` is set: its headers are checked only then.
      request.meta!.protocolVersion,
      false,
    ) ??
    headerRefusal(headers, 'Mcp-Method', request.method, false) ??
    ((request.method === 'tools/call' || request.method === 'resources/read') &&
    (typeof name === 'string' || headers['mcp-name'] !== undefined)
      ? headerRefusal(headers, 'Mcp-Name', name, true)
      : undefined)
  );
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
  const raw = headers[header.toLowerCase()];
  if (raw === undefined) {
    return McpProtocolError.headerMismatch(`the ${header} header is missing`);
  }
  const text = (Array.isArray(raw) ? raw.join(', ') : raw).replace(
    /^[\t ]+|[\t ]+$/g,
    '',
  );
  const value = encodable ? decoded(header, text) : text;
  if (value instanceof McpProtocolError) {
    return value;
  }
  return value === body
    ? undefined
    : McpProtocolError.headerMismatch(
        `the ${header} header value ${JSON.stringify(value)} does not match the body's ${JSON.stringify(body ?? null)}`,
      );
}

/**
 * A plain value as it is, an encoded one decoded; the `-32020` of a
 * malformed one.
 */
function decoded(header: string, text: string): string | McpProtocolError {
  const encoded = ENCODED.exec(text);
  if (!encoded) {
    return PLAIN.test(text)
      ? text
      : McpProtocolError.headerMismatch(
          `the ${header} header holds characters a plain value cannot; encode it as =?base64?...?=`,
        );
  }
  const text64 = encoded[1];
  const utf8 = BASE64.test(text64)
    ? utf8Text(Buffer.from(text64, 'base64'))
    : undefined;
  return (
    utf8 ??
    McpProtocolError.headerMismatch(
      `the ${header} header's =?base64?...?= value is not base64 of UTF-8 text`,
    )
  );
}

/** The UTF-8 text of `bytes`, or undefined when they are not UTF-8. */
function utf8Text(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
