import type { InvocationResult } from '@nestops/operations';
import type { McpReadContents } from './mcp-resource.interface.js';
import { DEFAULT_RESOURCE_MIME_TYPE } from './mcp-resource.catalogue.js';

/** A binary result's type when its resource states none. */
const BINARY_MIME_TYPE = 'application/octet-stream';

/**
 * Failures that read as "no such resource", so that a caller cannot tell a
 * resource it may not read from one that does not exist: the app's guards
 * or the operation's permission or policy denied it (to an anonymous
 * caller too), or the operation did not find it.
 */
export const UNREADABLE_FAILURES: ReadonlySet<string> = new Set([
  'SECURITY_DENIED_001',
  'SECURITY_DENIED_002',
  'SECURITY_DENIED_003',
  'SECURITY_DENIED_004',
  'BUSINESS_NOTFOUND_001',
]);

/**
 * The contents of a successful read of `uri`: bytes (a `Buffer` or a
 * `Uint8Array`) as `blob`, base64; a string as `text`; any other result as
 * its JSON text.
 */
export function resourceContents(
  uri: string,
  mimeType: string | undefined,
  result: Extract<InvocationResult, { readonly ok: true }>,
): McpReadContents {
  const { value, json } = result;
  if (value instanceof Uint8Array) {
    return {
      uri,
      mimeType: mimeType ?? BINARY_MIME_TYPE,
      blob: Buffer.from(
        value.buffer,
        value.byteOffset,
        value.byteLength,
      ).toString('base64'),
    };
  }
  const type = mimeType ?? DEFAULT_RESOURCE_MIME_TYPE;
  return typeof value === 'string' && type !== DEFAULT_RESOURCE_MIME_TYPE
    ? { uri, mimeType: type, text: value }
    : { uri, mimeType: type, text: json };
}
