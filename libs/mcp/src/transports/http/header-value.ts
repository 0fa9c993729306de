import type { IncomingHttpHeaders } from 'node:http';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';

/** `=?base64?<value>?=`: a header value that is not plain ASCII, encoded. */
const ENCODED = /^=\?base64\?(.*)\?=$/s;
const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain header value may hold. */
const PLAIN = /^[\t\x20-\x7e]*$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The value of `header` (case-insensitive; spaces and tabs around it
 * trimmed; an `encodable` one's `=?base64?...?=` decoded), undefined when
 * it is absent, or the `-32020` of a malformed one.
 */
export function headerValue(
  headers: IncomingHttpHeaders,
  header: string,
  encodable: boolean,
): string | McpProtocolError | undefined {
  const raw = headers[header.toLowerCase()];
  if (raw === undefined) {
    return undefined;
  }
  const text = (Array.isArray(raw) ? raw.join(', ') : raw).replace(
    /^[\t ]+|[\t ]+$/g,
    '',
  );
  return encodable ? decoded(header, text) : text;
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
