import { Logger } from '@nestjs/common';
import { internalErrorResponse } from '../json-rpc/internal-error.js';
import { idOf } from '../json-rpc/json-rpc-envelope.js';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  type JsonRpcResponse,
  MCP_HEADER_MISMATCH,
  MCP_UNSUPPORTED_PROTOCOL_VERSION,
} from '../json-rpc/json-rpc.types.js';
import {
  INVALID_REQUEST_META,
  McpProtocolError,
} from '../json-rpc/mcp-protocol.error.js';
import { type ProtocolEra, protocolEraOf } from '../json-rpc/protocol-era.js';
import { BATCH_PROTOCOL_VERSIONS, MAX_BATCH_SIZE } from '../mcp.constants.js';
import type {
  McpCallerContext,
  McpCarrierRules,
  McpDispatcher,
} from '../mcp.dispatcher.js';
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

  /**
   * `carrier` holds the POST's `MCP-Protocol-Version` and the checks of its
   * other headers for a 2026 request.
   */
  async answer(
    message: unknown,
    caller: McpCallerContext,
    carrier: McpCarrierRules,
  ): Promise<RpcAnswer> {
    const correlationId = correlationIdOf(caller.headers);
    const { protocolVersion } = carrier;
    if (
      Array.isArray(message) &&
      protocolVersion !== undefined &&
      BATCH_PROTOCOL_VERSIONS.includes(protocolVersion)
    ) {
      return this.batch(message, caller, correlationId);
    }
    const response = await this.one(message, caller, correlationId, carrier);
    return response
      ? {
          status: statusOf(response, protocolEraOf(message, protocolVersion)),
          body: response,
        }
      : ACCEPTED;
  }

  private async batch(
    messages: readonly unknown[],
    caller: McpCallerContext,
    correlationId: string,
  ): Promise<RpcAnswer> {
    const problem =
      messages.length === 0
        ? 'the batch is empty'
        : messages.length > MAX_BATCH_SIZE
          ? `a batch holds at most ${MAX_BATCH_SIZE} messages`
          : messages.some((each) => protocolEraOf(each) === 'modern')
            ? 'a 2026-07-28 request (one with a protocol version in its _meta) cannot be part of a batch'
            : undefined;
    if (problem) {
      const error = McpProtocolError.invalidRequest(problem);
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
    carrier?: McpCarrierRules,
  ): Promise<JsonRpcResponse | undefined> {
    try {
      return await this.dispatcher.dispatch(message, caller, carrier);
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

/**
 * A single message's status: `400` when the POST itself was bad, `500` when
 * the server failed. A 2026 request also gets `400` for a bad `_meta`
 * (`-32602` with `PROTOCOLS_VALIDATION_005`), headers that disagree
 * (`-32020`) or a version not spoken (`-32022`), and `404` for a method it
 * does not have; its other errors (an unknown tool, say) are answers, `200`,
 * as in 2025.
 */
function statusOf(response: JsonRpcResponse, era: ProtocolEra): number {
  if (!('error' in response)) {
    return 200;
  }
  const { code, data } = response.error;
  switch (code) {
    case JSON_RPC_PARSE_ERROR:
    case JSON_RPC_INVALID_REQUEST:
      return 400;
    case JSON_RPC_INTERNAL_ERROR:
      return 500;
  }
  if (era === 'legacy') {
    return 200;
  }
  if (code === JSON_RPC_METHOD_NOT_FOUND) {
    return 404;
  }
  return code === MCP_HEADER_MISMATCH ||
    code === MCP_UNSUPPORTED_PROTOCOL_VERSION ||
    data.code === INVALID_REQUEST_META
    ? 400
    : 200;
}
