import { Injectable } from '@nestjs/common';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCall } from './mcp-call.js';
import { McpGreeting } from './mcp-greeting.js';
import { discoverResult } from './greeting.js';
import { McpTools } from './mcp-tools.js';
import { McpPrompts } from './mcp-prompts.js';
import { McpCompletions } from './mcp-completions.js';
import { McpResources, RESOURCE_METHODS } from './mcp-resources.js';
import { McpTasks, TASK_METHODS } from '../tasks/mcp-tasks.js';

/**
 * A stateless 2026-07-28 request, its `_meta` already read and its carrier's
 * checks passed: `server/discover`, `tools/list`, `tools/call`,
 * `prompts/list`, `prompts/get`, `completion/complete` (and in an app with
 * resources `resources/list`, `resources/templates/list`, `resources/read`;
 * with task operations `tasks/get`, `tasks/update`, `tasks/cancel`),
 * each result
 * with `resultType: "complete"`; any other method (`initialize`, `ping` and
 * `logging/setLevel`, whose level a 2026 call names in its own `_meta`,
 * included) is `-32601`.
 */
@Injectable()
export class Revision2026Handler {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly tools: McpTools,
    private readonly greeting: McpGreeting,
    private readonly prompts: McpPrompts,
    private readonly completions: McpCompletions,
    private readonly resources: McpResources,
    private readonly tasks: McpTasks,
  ) {}

  answer(call: McpCall): unknown {
    switch (call.request.method) {
      case 'server/discover':
        return discoverResult(this.greeting.get());
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
      default:
        if (RESOURCE_METHODS.has(call.request.method)) {
          return this.resources.answer(call);
        }
        if (
          TASK_METHODS.has(call.request.method) &&
          this.greeting.get().features?.includes('tasks')
        ) {
          return this.tasks.answer(call);
        }
        throw McpProtocolError.methodNotFound(call.request.method);
    }
  }
}
