import type { OperationFailure } from '@nestops/operations';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_PARAMS,
} from '../json-rpc/json-rpc.types.js';

/** The catalogue codes of a `prompts/get` or `completion/complete` refused. */
export const UNKNOWN_PROMPT = 'PROTOCOLS_NOTFOUND_004';
export const UNKNOWN_COMPLETION_REF = 'PROTOCOLS_NOTFOUND_005';
export const INVALID_PROMPT_PARAMS = 'PROTOCOLS_VALIDATION_011';

/** A `prompts/get` naming no prompt the caller may use. */
export function unknownPrompt(name: unknown): McpProtocolError {
  return new McpProtocolError(
    JSON_RPC_INVALID_PARAMS,
    UNKNOWN_PROMPT,
    `Unknown prompt: ${JSON.stringify(name)}.`,
  );
}

/** A `completion/complete` whose reference or argument the caller cannot complete. */
export function unknownCompletionRef(what: string): McpProtocolError {
  return new McpProtocolError(
    JSON_RPC_INVALID_PARAMS,
    UNKNOWN_COMPLETION_REF,
    `Unknown completion reference: ${what}.`,
  );
}

/** Params that are not what the method takes. */
export function invalidParams(reason: string): McpProtocolError {
  return new McpProtocolError(
    JSON_RPC_INVALID_PARAMS,
    INVALID_PROMPT_PARAMS,
    `Invalid params: ${reason}.`,
  );
}

/**
 * A prompt's or completer's failed call as a protocol error: a denial as
 * `notFound` (no existence leak, as for resources), invalid arguments as
 * `-32602` naming the fields, anything else as `-32603`; the message is the
 * failure's text in the caller's language, its code in `error.data.code`.
 */
export function callFailureError(
  failure: OperationFailure,
  text: string,
  notFound: () => McpProtocolError,
): McpProtocolError {
  if (failure.code.startsWith('SECURITY_DENIED_')) {
    return notFound();
  }
  if (failure.code.startsWith('VALIDATION_')) {
    const fields = [
      ...new Set((failure.violations ?? []).map((v) => v.property)),
    ];
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      failure.code,
      text,
      fields.length > 0 ? { fields } : {},
    );
  }
  return new McpProtocolError(JSON_RPC_INTERNAL_ERROR, failure.code, text);
}
