import { McpProtocolError } from './mcp-protocol.error.js';
import type { JsonRpcId, JsonRpcRequest } from './json-rpc.types.js';

/** What one incoming JSON-RPC message is. */
export type IncomingMessage =
  | {
      readonly kind: 'request';
      readonly request: JsonRpcRequest & { id: JsonRpcId };
    }
  | { readonly kind: 'notification'; readonly request: JsonRpcRequest }
  | {
      readonly kind: 'response';
      readonly id: JsonRpcId;
      /** The result, or undefined when the answer is an error. */
      readonly result?: unknown;
      readonly error?: unknown;
    };

/** Whether a parsed JSON value is an object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a parsed id can be echoed exactly: a string, or a number that is a
 * safe integer. `JSON.parse` has already rounded any other number (`1e400` is
 * `Infinity`, `12345678901234567890` is `12345678901234567000`), and JSON-RPC
 * 2.0 says ids SHOULD NOT have fractional parts, so those are refused too.
 */
export function isEchoableId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/** The request id to echo in an error answer, when the message has a usable one. */
export function idOf(message: unknown): JsonRpcId | null {
  const id = isRecord(message) ? message.id : undefined;
  return isEchoableId(id) ? id : null;
}

/** Classifies a parsed message, or throws `-32600` for anything that is not JSON-RPC 2.0. */
export function readEnvelope(message: unknown): IncomingMessage {
  if (!isRecord(message)) {
    throw McpProtocolError.invalidRequest('the message must be a JSON object');
  }
  if (message.jsonrpc !== '2.0') {
    throw McpProtocolError.invalidRequest('"jsonrpc" must be "2.0"');
  }
  const hasId = Object.hasOwn(message, 'id');
  const id = message.id;
  if (hasId && typeof id !== 'string' && typeof id !== 'number') {
    throw McpProtocolError.invalidRequest('"id" must be a string or a number');
  }
  if (hasId && !isEchoableId(id)) {
    throw McpProtocolError.invalidRequest(
      'a numeric "id" must be an integer from -(2^53 - 1) to 2^53 - 1',
    );
  }
  if (!Object.hasOwn(message, 'method')) {
    if (
      hasId &&
      (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'))
    ) {
      return {
        kind: 'response',
        id: id as JsonRpcId,
        result: message.result,
        error: message.error,
      };
    }
    throw McpProtocolError.invalidRequest('"method" is missing');
  }
  if (typeof message.method !== 'string') {
    throw McpProtocolError.invalidRequest('"method" must be a string');
  }
  if (Object.hasOwn(message, 'params') && !isRecord(message.params)) {
    throw McpProtocolError.invalidRequest('"params" must be an object');
  }
  const request = message as unknown as JsonRpcRequest;
  return hasId
    ? {
        kind: 'request',
        request: request as JsonRpcRequest & { id: JsonRpcId },
      }
    : { kind: 'notification', request };
}
