import { Injectable } from '@nestjs/common';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCall } from './mcp-call.js';
import { McpGreeting } from './mcp-greeting.js';
import { setLogLevel } from './call-notifications.js';
import { initializeResult } from './greeting.js';
import { McpTools } from './mcp-tools.js';
import { McpPrompts } from './mcp-prompts.js';
import { McpCompletions } from './mcp-completions.js';
import { McpResources, RESOURCE_METHODS } from './mcp-resources.js';

/**
 * A 2025 request (`initialize`, `ping`, `tools/list`, `tools/call`,
 * `prompts/list`, `prompts/get`, `completion/complete`, `logging/setLevel`,
 * and in an app with resources `resources/list`, `resources/templates/list`,
 * `resources/read`),
 * answered exactly as before 2026-07-28 existed; any other method is
 * `-32601` (`resources/subscribe` and `resources/unsubscribe` included:
 * no `subscribe` capability is declared).
 */
@Injectable()
export class Revision2025Handler {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly tools: McpTools,
    private readonly greeting: McpGreeting,
    private readonly prompts: McpPrompts,
    private readonly completions: McpCompletions,
    private readonly resources: McpResources,
  ) {}

  answer(call: McpCall): unknown {
    const { request } = call;
    switch (request.method) {
      case 'initialize': {
        const result = initializeResult(
          this.greeting.get(),
          request.params.protocolVersion,
        );
        call.session.protocolVersion = result.protocolVersion;
        const { capabilities } = request.params;
        call.session.clientCapabilities =
          typeof capabilities === 'object' &&
          capabilities !== null &&
          !Array.isArray(capabilities)
            ? (capabilities as Record<string, unknown>)
            : {};
        return result;
      }
      case 'ping':
        return {};
      case 'tools/list':
        return this.tools.list(call);
      case 'tools/call':
        return this.tools.call(call);
      case 'prompts/list':
        return this.prompts.list(call);
      case 'prompts/get':
        return this.prompts.get(call);
      case 'completion/complete':
        return this.completions.complete(call);
      case 'logging/setLevel':
        return setLogLevel(request.params, call.session.logging);
      default:
        if (RESOURCE_METHODS.has(request.method)) {
          return this.resources.answer(call);
        }
        throw McpProtocolError.methodNotFound(request.method);
    }
  }
}
