import { Injectable, Logger } from '@nestjs/common';
import { correlationIdOf } from '@nestops/operations/internal';
import { internalErrorResponse } from '../json-rpc/internal-error.js';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCall } from './mcp-call.js';
import { Revision2025Handler } from './revision-2025.handler.js';
import { Revision2026Handler } from './revision-2026.handler.js';
import {
  McpTelemetry,
  type RequestTelemetry,
} from '../telemetry/mcp-telemetry.js';

/**
 * Answers one request, knowing nothing of HTTP or stdio: in the revision
 * its body names (with `io.modelcontextprotocol/protocolVersion` in
 * `params._meta` a stateless 2026-07-28 request, every result with
 * `resultType: "complete"`; otherwise a 2025 one), under its telemetry. A
 * request whose handling fails unexpectedly gets `-32603` with the caller's
 * correlation id, under which the cause is logged.
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpDispatcher');

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly revision2025: Revision2025Handler,
    private readonly revision2026: Revision2026Handler,
    private readonly telemetry: McpTelemetry,
  ) {}

  /** The answer to `call`'s request. */
  answer(call: McpCall): Promise<JsonRpcResponse> {
    const observed = this.telemetry.begin(call);
    call.observer = observed;
    return observed ? this.observe(observed, call) : this.respond(call);
  }

  /** Serves `call` under its span, then records how it was answered. */
  private async observe(
    observed: RequestTelemetry,
    call: McpCall,
  ): Promise<JsonRpcResponse> {
    const response = await observed.run(() => this.respond(call));
    observed.end(response);
    return response;
  }

  private async respond(call: McpCall): Promise<JsonRpcResponse> {
    const { request } = call;
    try {
      const handler =
        request.revision === '2026' ? this.revision2026 : this.revision2025;
      const result = await handler.answer(call);
      return { jsonrpc: '2.0', id: request.id, result };
    } catch (error) {
      if (error instanceof McpProtocolError) {
        return error.toResponse(request.id);
      }
      const correlationId = correlationIdOf(call.transport.caller.headers);
      this.logger.error(
        `MCP request failed (correlation id ${correlationId})`,
        error instanceof Error ? error.stack : String(error),
      );
      return internalErrorResponse(request.id, correlationId);
    }
  }
}
