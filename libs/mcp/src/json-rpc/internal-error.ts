import {
  JSON_RPC_INTERNAL_ERROR,
  type JsonRpcId,
  type JsonRpcResponse,
} from './json-rpc.types.js';

/**
 * The `-32603` answer to a message whose handling failed unexpectedly: the
 * cause stays in the server's log, under `correlationId`, which the answer
 * carries in `error.data`.
 */
export function internalErrorResponse(
  id: JsonRpcId | null,
  correlationId: string,
): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: JSON_RPC_INTERNAL_ERROR,
      message: `Internal error (correlation id ${correlationId}).`,
      data: { code: 'INTERNAL_ERROR_001', correlationId },
    },
  };
}
