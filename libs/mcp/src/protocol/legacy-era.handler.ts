import { Inject, Injectable } from '@nestjs/common';
import type { ResponseStream } from '@nestops/operations/internal';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from '../mcp-caller.context.js';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver.js';
import type { McpRequest } from './mcp-message.js';
import { setLogLevel } from './call-notifications.js';
import { initializeResult } from './greeting.js';
import { McpTools } from './mcp-tools.js';
import type { RequestTelemetry } from '../telemetry/mcp-telemetry.js';

/**
 * A 2025 request (`initialize`, `ping`, `tools/list`, `tools/call`,
 * `logging/setLevel`),
 * answered exactly as before 2026-07-28 existed; any other method is
 * `-32601`.
 */
@Injectable()
export class LegacyEraHandler {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly tools: McpTools,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  answer(
    request: McpRequest,
    caller: McpCallerContext,
    responseStream?: ResponseStream,
    telemetry?: RequestTelemetry,
  ): unknown {
    switch (request.method) {
      case 'initialize':
        return initializeResult(this.settings, request.params.protocolVersion);
      case 'ping':
        return {};
      case 'tools/list':
        return this.tools.list('legacy', caller);
      case 'tools/call':
        return this.tools.call(
          'legacy',
          request.params,
          caller,
          responseStream,
          caller.logging?.level,
          telemetry,
        );
      case 'logging/setLevel':
        return setLogLevel(request.params, caller.logging);
      default:
        throw McpProtocolError.methodNotFound(request.method);
    }
  }
}
