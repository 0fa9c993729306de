import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpRequest } from '../protocol/mcp-message.js';

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
 * the tool's name (after decoding `=?base64?...?=`). Header names are
 * case-insensitive (Node lowercases them); values are compared exactly after
 * trimming spaces and tabs. Throws `-32020` on the first that fails.
 */
export function checkRequestHeaders(
  headers: IncomingHttpHeaders,
  request: McpRequest,
): void {
  expectHeader(
    headers,
    'MCP-Protocol-Version',
    request.meta?.protocolVersion,
    false,
  );
  expectHeader(headers, 'Mcp-Method', request.method, false);
  const name = request.params.name;
  if (
    request.method === 'tools/call' &&
    (typeof name === 'string' || headers['mcp-name'] !== undefined)
  ) {
    expectHeader(headers, 'Mcp-Name', name, true);
  }
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
  if (bodyVersion === undefined || id === null) {
    return undefined;
  }
  try {
    expectHeader(headers, 'MCP-Protocol-Version', bodyVersion, false);
    return undefined;
  } catch (error) {
    if (error instanceof McpProtocolError) {
      return error;
    }
    throw error;
  }
}

function expectHeader(
  headers: IncomingHttpHeaders,
  header: string,
  body: unknown,
  encodable: boolean,
): void {
  const raw = headers[header.toLowerCase()];
  if (raw === undefined) {
    throw McpProtocolError.headerMismatch(`the ${header} header is missing`);
  }
  const text = (Array.isArray(raw) ? raw.join(', ') : raw).replace(
    /^[\t ]+|[\t ]+$/g,
    '',
  );
  const value = encodable ? decoded(header, text) : text;
  if (value !== body) {
    throw McpProtocolError.headerMismatch(
      `the ${header} header value ${JSON.stringify(value)} does not match the body's ${JSON.stringify(body ?? null)}`,
    );
  }
}

/** A plain value as it is, an encoded one decoded; `-32020` when malformed. */
function decoded(header: string, text: string): string {
  const encoded = ENCODED.exec(text);
  if (!encoded) {
    if (!PLAIN.test(text)) {
      throw McpProtocolError.headerMismatch(
        `the ${header} header holds characters a plain value cannot; encode it as =?base64?...?=`,
      );
    }
    return text;
  }
  try {
    if (!BASE64.test(encoded[1])) {
      throw new Error('not base64');
    }
    return UTF8.decode(Buffer.from(encoded[1], 'base64'));
  } catch {
    throw McpProtocolError.headerMismatch(
      `the ${header} header's =?base64?...?= value is not base64 of UTF-8 text`,
    );
  }
}
