import { Logger } from '@nestjs/common';
import { internalErrorResponse } from '../json-rpc/internal-error';
import { idOf } from '../json-rpc/json-rpc-envelope';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_PARSE_ERROR,
  type JsonRpcResponse,
} from '../json-rpc/json-rpc.types';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error';
import { BATCH_PROTOCOL_VERSIONS, MAX_BATCH_SIZE } from '../mcp.constants';
import type { McpCallerContext, McpDispatcher } from '../mcp.dispatcher';
import { correlationIdOf } from '@nestops/operations';

/** The HTTP answer to a POST's JSON-RPC content. */
export interface RpcAnswer {
  readonly status: number;
  /** Absent for `202`: nothing is due. */
  readonly body?: JsonRpcResponse | readonly JsonRpcResponse[];
}

/**
 * Answers the parsed body of one POST through the dispatcher: one message,
 * or, under a protocol version that has them, a JSON-RPC batch whose
 * messages are dispatched one after another, each on its own. A message
 * whose dispatch fails unexpectedly gets `-32603` with the POST's
 * correlation id, under which the cause is logged.
 */
export class JsonRpcAnswerer {
  private readonly logger = new Logger('McpHttpTransport');

  constructor(private readonly dispatcher: McpDispatcher) {}

  async answer(
    message: unknown,
    caller: McpCallerContext,
    protocolVersion: string | undefined,
  ): Promise<RpcAnswer> {
    const correlationId = correlationIdOf(caller.headers);
    if (
      Array.isArray(message) &&
      protocolVersion !== undefined &&
      BATCH_PROTOCOL_VERSIONS.includes(protocolVersion)
    ) {
      return this.batch(message, caller, correlationId);
    }
    const response = await this.one(message, caller, correlationId);
    return response ? { status: statusOf(response), body: response } : ACCEPTED;
  }

  private async batch(
    messages: readonly unknown[],
    caller: McpCallerContext,
    correlationId: string,
  ): Promise<RpcAnswer> {
    if (messages.length === 0 || messages.length > MAX_BATCH_SIZE) {
      const error = McpProtocolError.invalidRequest(
        messages.length === 0
          ? 'the batch is empty'
          : `a batch holds at most ${MAX_BATCH_SIZE} messages`,
      );
      return { status: 400, body: error.toResponse(null) };
    }
    const responses: JsonRpcResponse[] = [];
    for (const message of messages) {
      const response = await this.one(message, caller, correlationId);
      if (response) {
        responses.push(response);
      }
    }
    return responses.length > 0 ? { status: 200, body: responses } : ACCEPTED;
  }

  private async one(
    message: unknown,
    caller: McpCallerContext,
    correlationId: string,
  ): Promise<JsonRpcResponse | undefined> {
    try {
      return await this.dispatcher.dispatch(message, caller);
    } catch (error) {
      this.logger.error(
        `MCP request failed (correlation id ${correlationId})`,
        error instanceof Error ? error.stack : String(error),
      );
      return internalErrorResponse(idOf(message), correlationId);
    }
  }
}

const ACCEPTED: RpcAnswer = { status: 202 };

/** A single message's status: `400` when the POST itself was bad, `500` when the server failed. */
function statusOf(response: JsonRpcResponse): number {
  if (!('error' in response)) {
    return 200;
  }
  switch (response.error.code) {
    case JSON_RPC_PARSE_ERROR:
    case JSON_RPC_INVALID_REQUEST:
      return 400;
    case JSON_RPC_INTERNAL_ERROR:
      return 500;
    default:
      return 200;
  }
}
