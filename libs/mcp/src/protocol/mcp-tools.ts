import { Inject, Injectable } from '@nestjs/common';
import {
  OPERATION_KIND,
  type OperationDefinition,
  OperationMessages,
} from '@nestops/operations/internal';
import { McpTasks } from '../tasks/mcp-tasks.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCall } from './mcp-call.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { McpCallInvoker } from './call-invocation.js';
import { InputRequired } from '../asking/mcp-asking.js';
import type { RawJson } from './answer-text.js';
import { McpAnswerWriter } from './answer.writer.js';

/**
 * `tools/list` and `tools/call`, the methods both revisions have, each written
 * in its revision's shape.
 */
@Injectable()
export class McpTools {
  /** @internal Made by Nest's injector. */
  constructor(
    private readonly catalogue: McpToolCatalogue,
    private readonly calls: McpCallInvoker,
    private readonly messages: OperationMessages,
    private readonly writer: McpAnswerWriter,
    private readonly tasks: McpTasks,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /**
   * The tool list in the caller's language (under `toolListPerCaller`,
   * the tools its permissions reach); in 2026 sorted by name, with cache
   * hints (`"public"` when it is the same in every language and for
   * every caller).
   */
  list(call: McpCall): RawJson {
    const { revision } = call.request;
    const { caller } = call.transport;
    const locale = this.messages.callerLocale(caller.headers, caller.locale);
    const reach = this.settings.toolListPerCaller
      ? this.catalogue.reachOf(caller.principal)
      : undefined;
    return this.writer.toolList(revision, locale, reach?.key, () =>
      revision === '2025'
        ? { tools: this.catalogue.within(this.catalogue.tools(locale), reach) }
        : {
            tools: this.catalogue.within(
              this.catalogue.toolsByName(locale),
              reach,
            ),
            ...this.writer.cacheHints(
              !reach && this.catalogue.isSameInEveryLanguage(),
            ),
          },
    );
  }

  /**
   * A call: its params read (`-32602` for a missing name, an unknown tool
   * or arguments that are not an object), then the operation called
   * through the one invocation API, with the carrier's response stream.
   */
  async call(call: McpCall): Promise<RawJson | object> {
    const { params, revision } = call.request;
    const name = params.name;
    if (typeof name !== 'string') {
      throw McpProtocolError.missingToolName();
    }
    const entry = this.catalogue.find(name);
    if (!entry) {
      throw McpProtocolError.unknownTool(name);
    }
    const input = params.arguments === undefined ? {} : params.arguments;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw McpProtocolError.argumentsNotObject();
    }
    const { operation } = entry;
    if (this.tasks.runsAsTask(call, operation)) {
      return this.task(call, operation, name, input);
    }
    const result = await this.calls.invoke(call, operation, name, input);
    return result instanceof InputRequired
      ? result.result
      : this.writer.toolResult(result, revision);
  }

  /**
   * A call that runs as a task once it is ready to run (its guards,
   * validation and confirmation passed): answered with the task made;
   * a call refused or stopped at a question before is answered as such.
   */
  private async task(
    call: McpCall,
    operation: OperationDefinition,
    name: string,
    input: object,
  ): Promise<RawJson | object> {
    let task: TaskRecord | undefined;
    const result = await this.calls.invoke(
      call,
      operation,
      name,
      input,
      OPERATION_KIND,
      async (answers) => {
        task = await this.tasks.create(call, name, operation, input, answers);
        return task.id;
      },
    );
    if (result instanceof InputRequired) {
      return result.result;
    }
    if (task !== undefined && !result.ok) {
      return this.tasks.created(task);
    }
    return this.writer.toolResult(result, '2026');
  }
}
