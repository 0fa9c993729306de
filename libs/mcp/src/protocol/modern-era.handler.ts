import { Inject, Injectable } from '@nestjs/common';
import type { ResponseStream } from '@nestops/operations/internal';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from '../mcp-caller.context.js';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver.js';
import { discoverResult } from './greeting.js';
import type { McpRequest } from './mcp-message.js';
import { McpTools } from './mcp-tools.js';
import type { RequestTelemetry } from '../telemetry/mcp-telemetry.js';

/**
 * A stateless 2026-07-28 request, its `_meta` already read and its carrier's
 * checks passed: `server/discover`, `tools/list`, `tools/call`, each result
 * with `resultType: "complete"`; any other method (`initialize`, `ping` and
 * `logging/setLevel`, whose level a 2026 call names in its own `_meta`,
 * included) is `-32601`.
 */
@Injectable()
export class ModernEraHandler {
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
      case 'server/discover':
        return discoverResult(this.settings);
      case 'tools/list':
        return this.tools.list('modern', caller);
      case 'tools/call':
        return this.tools.call(
          'modern',
          request.params,
          caller,
          responseStream,
          request.meta?.logLevel,
          telemetry,
        );
      default:
        throw McpProtocolError.methodNotFound(request.method);
    }
  }
}
