import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import {
  COMMITTED_RESULTS,
  type CommittedResults,
  type InvocationRecord,
  OperationInvoker,
  OperationRegistry,
} from '@nestops/operations/internal';
import { InputAsker } from '../asking/input-asker.js';
import { answerText } from '../protocol/answer-text.js';
import { McpAnswerWriter } from '../protocol/answer.writer.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { TASK_STORE, type TaskStore } from './task-store.js';
import { TERMINAL, type TaskRecord } from './task-record.js';
import { taskReporter } from './task-reporter.js';

/** The failures that end a task as `failed`: the server's, not the call's. */
const SERVER_FAILURES: ReadonlySet<string> = new Set([
  'INTERNAL_ERROR_001',
  'INTERNAL_ERROR_002',
  'INTERNAL_TIMEOUT_001',
  'INTERNAL_UNAVAILABLE_001',
  'INTERNAL_UNAVAILABLE_002',
  'INTERNAL_CONTRACT_001',
]);

/**
 * Runs one task on this instance, from its stored record alone: the call
 * through the one invocation API (the app's guards, validation and unit of
 * work, with the headers of the request that created it), its questions
 * answered from the task's answers, its progress as the task's status
 * message. The call's answer becomes the task's: `completed` with the
 * tool result (a business failure as `isError`), `failed` with a JSON-RPC
 * error for the server's own failures, `input_required` with the
 * questions it stopped at. A result its unit of work already committed
 * under the task's id is taken as it is, never run again.
 */
@Injectable()
export class McpTaskRunner {
  private readonly logger = new Logger('McpTasks');

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly invoker: OperationInvoker,
    private readonly registry: OperationRegistry,
    private readonly writer: McpAnswerWriter,
    private readonly telemetry: McpTelemetry,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    @Optional()
    @Inject(COMMITTED_RESULTS)
    private readonly committed?: CommittedResults,
  ) {}

  /** Runs the task `id` until it ends or stops at a question; `signal` cancels it. */
  async run(id: string, signal: AbortSignal): Promise<void> {
    try {
      await this.runTask(id, signal);
    } catch (error) {
      this.logger.error(
        `Task ${id} failed`,
        error instanceof Error ? error.stack : String(error),
      );
      await this.fail(id, 'The task failed on the server.').catch(
        () => undefined,
      );
    }
  }

  private async runTask(id: string, signal: AbortSignal): Promise<void> {
    const record = await this.store.get(id);
    if (!record || TERMINAL.has(record.status) || signal.aborted) {
      return;
    }
    const definition = this.registry.get(record.operationId);
    if (!definition) {
      await this.fail(id, `the operation '${record.operationId}' is gone`);
      return;
    }
    const stored = await this.committed?.find(id);
    if (stored !== undefined) {
      await this.settle(id, committedResult(stored));
      return;
    }
    const began = Date.now();
    const asker = new InputAsker(
      record.caller.capabilities,
      new Map(Object.entries(record.answers)),
    );
    let observed: InvocationRecord | undefined;
    const result = await this.invoker.invoke(
      definition.id,
      {
        carrier: 'mcp',
        target: record.tool,
        headers: record.caller.headers,
        request: record.caller.request,
        locale: record.caller.locale,
        input: record.input,
        // Never past the task's time to live.
        timeout: Math.max(1, record.createdAt + record.ttlMs - began),
      },
      {
        cancel: signal,
        reporter: taskReporter(this.store, id),
        asker,
        taskId: id,
        observe: (seen) => (observed = seen),
      },
    );
    if (signal.aborted) {
      return; // Cancelled: its status says so already.
    }
    if (!result.ok && result.failure.code === 'INTERNAL_INPUT_001') {
      await this.store.update(id, (now) =>
        now.status === 'working'
          ? {
              ...now,
              status: 'input_required',
              statusMessage: 'Waiting for the client to answer.',
              inputRequests: asker.inputRequests(),
              lastUpdatedAt: Date.now(),
            }
          : undefined,
      );
      return;
    }
    // A second run that lost the race to commit finds the first's result.
    const settled =
      !result.ok && this.committed ? await this.committed.find(id) : undefined;
    await this.settle(
      id,
      settled === undefined ? result : committedResult(settled),
    );
    this.audit(record, result, began, observed);
  }

  /** Ends the task with what its call answered. */
  private async settle(id: string, result: InvocationResult): Promise<void> {
    if (!result.ok && SERVER_FAILURES.has(result.failure.code)) {
      await this.fail(id, result.text, result.failure.code);
      return;
    }
    // The 2026-07-28 tool result as the plain call answers it, `resultType` included.
    const tool = JSON.parse(
      answerText(this.writer.toolResult(result, '2026')),
    ) as object;
    await this.end(id, { status: 'completed', result: tool });
  }

  private fail(id: string, message: string, code = 'INTERNAL_ERROR_001') {
    return this.end(id, {
      status: 'failed',
      error: { code: -32603, message, data: { code } },
    });
  }

  /** Stores the task's end, unless it ended already (cancelled, say). */
  private async end(id: string, ending: Partial<TaskRecord>): Promise<void> {
    await this.store.update(id, (now) =>
      TERMINAL.has(now.status)
        ? undefined
        : {
            ...now,
            ...ending,
            statusMessage: undefined,
            inputRequests: undefined,
            lastUpdatedAt: Date.now(),
          },
    );
  }

  /** The audit event of the task's outcome, for the principal that ran it. */
  private audit(
    record: TaskRecord,
    result: InvocationResult,
    began: number,
    observed: InvocationRecord | undefined,
  ): void {
    if (!this.telemetry.sink) {
      return;
    }
    const { principalId } = this.settings.telemetry;
    const principal = observed?.principal;
    this.telemetry.audit({
      time: new Date(began).toISOString(),
      principalId:
        principal === undefined ? null : (principalId(principal) ?? null),
      tenant: observed?.tenant ?? null,
      tool: record.tool,
      operationId: record.operationId,
      outcome: result.ok ? 'ok' : result.failure.code,
      ...(observed?.confirmed ? { confirmed: true as const } : {}),
      durationMs: Date.now() - began,
      correlationId: observed?.correlationId ?? record.id,
      transport: 'http',
      protocolVersion: '2026-07-28',
      taskId: record.id,
    });
  }
}

/** The answer of a call whose result its unit of work committed as `json`. */
function committedResult(json: string): InvocationResult {
  return { ok: true, value: JSON.parse(json) as unknown, json };
}
