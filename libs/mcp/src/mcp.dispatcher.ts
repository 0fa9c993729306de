import { Injectable, Logger } from '@nestjs/common';
import {
  correlationIdOf,
  type ResponseStream,
} from '@nestops/operations/internal';
import { internalErrorResponse } from './json-rpc/internal-error.js';
import type { JsonRpcResponse } from './json-rpc/json-rpc.types.js';
import { McpProtocolError } from './json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from './mcp-caller.context.js';
import {
  classifyMessage,
  type McpMessage,
  type McpRequest,
} from './protocol/mcp-message.js';
import { LegacyEraHandler } from './protocol/legacy-era.handler.js';
import { ModernEraHandler } from './protocol/modern-era.handler.js';
import {
  McpTelemetry,
  type RequestTelemetry,
} from './telemetry/mcp-telemetry.js';

/**
 * The carrier-agnostic MCP server: answers one JSON-RPC message, knowing
 * nothing of HTTP or stdio. Returns undefined when no answer is due
 * (notifications and client responses).
 *
 * A request is served in the era its body names: with
 * `io.modelcontextprotocol/protocolVersion` in `params._meta` it is a
 * stateless 2026-07-28 request (`server/discover`, `tools/list`,
 * `tools/call`; every result with `resultType: "complete"`), otherwise a
 * 2025 one, answered exactly as before that revision existed. A message
 * whose handling fails unexpectedly gets `-32603` with the caller's
 * correlation id, under which the cause is logged.
 *
 * @publicApi
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpDispatcher');

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly legacy: LegacyEraHandler,
    private readonly modern: ModernEraHandler,
    private readonly telemetry: McpTelemetry,
  ) {}

  /**
   * Answers one parsed message (a request, a notification or a response)
   * with the era rules of its body; undefined when no answer is due.
   */
  dispatch(
    message: unknown,
    caller: McpCallerContext,
  ): Promise<JsonRpcResponse | undefined> {
    return this.serve(classifyMessage(message), caller);
  }

  /**
   * @internal Routes a message a carrier has classified (and checked
   * against its own rules) to its era's handler. `responseStream` is where
   * a call may send messages before its answer.
   */
  serve(
    message: McpMessage,
    caller: McpCallerContext,
    responseStream?: ResponseStream,
  ): Promise<JsonRpcResponse | undefined> {
    if (message.kind === 'refused') {
      return Promise.resolve(message.error.toResponse(message.id));
    }
    if (message.kind !== 'request') {
      return Promise.resolve(undefined);
    }
    const observed = this.telemetry.begin(message, caller);
    return observed
      ? this.observe(observed, message, caller, responseStream)
      : this.answer(message, caller, responseStream);
  }

  /** Serves `message` under its span, then records how it was answered. */
  private async observe(
    observed: RequestTelemetry,
    message: McpRequest,
    caller: McpCallerContext,
    responseStream: ResponseStream | undefined,
  ): Promise<JsonRpcResponse> {
    const response = await observed.run(() =>
      this.answer(message, caller, responseStream, observed),
    );
    observed.end(response);
    return response;
  }

  private async answer(
    message: McpRequest,
    caller: McpCallerContext,
    responseStream: ResponseStream | undefined,
    observed?: RequestTelemetry,
  ): Promise<JsonRpcResponse> {
    try {
      const handler = message.era === 'modern' ? this.modern : this.legacy;
      const result = await handler.answer(
        message,
        caller,
        responseStream,
        observed,
      );
      return { jsonrpc: '2.0', id: message.id, result };
    } catch (error) {
      if (error instanceof McpProtocolError) {
        return error.toResponse(message.id);
      }
      const correlationId = correlationIdOf(caller.headers);
      this.logger.error(
        `MCP request failed (correlation id ${correlationId})`,
        error instanceof Error ? error.stack : String(error),
      );
      return internalErrorResponse(message.id, correlationId);
    }
  }
}
