import { createHash, randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { OperationDefinition } from '@nestops/operations/internal';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import type { McpCall } from '../protocol/mcp-call.js';
import { McpAnswerWriter } from '../protocol/answer.writer.js';
import { callerOfCall } from '../transports/http/http-caller.js';
import { TASK_ENGINE, type TaskEngine } from './task-engine.js';
import { TASK_STORE, type TaskStore } from './task-store.js';
import {
  createTaskResult,
  detailedTask,
  TASKS_EXTENSION,
  TERMINAL,
  type TaskRecord,
} from './task-record.js';

/** The methods of the tasks extension. */
export const TASK_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`): a
 * `tools/call` of an operation with `@Operation({ task })` becomes a task
 * for a client that negotiated it (in its request's `_meta`), and
 * `tasks/get`, `tasks/update` and `tasks/cancel` serve the caller's own
 * tasks. Another caller's task is answered exactly as an unknown one.
 */
@Injectable()
export class McpTasks implements OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_ENGINE) private readonly engine: TaskEngine,
    private readonly writer: McpAnswerWriter,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.engine.close();
    await this.store.close();
  }

  /**
   * Whether `call`, of `definition`, runs as a task: a 2026-07-28 call of
   * an operation with `task` from a client that negotiated tasks. A
   * `required` one from a client that did not is `-32021`.
   */
  runsAsTask(call: McpCall, definition: OperationDefinition): boolean {
    if (definition.task === undefined || call.request.revision !== '2026') {
      return false;
    }
    if (negotiated(call)) {
      return true;
    }
    if (definition.task === 'required') {
      throw McpProtocolError.missingClientCapability({
        extensions: { [TASKS_EXTENSION]: {} },
      });
    }
    return false;
  }

  /**
   * Creates the task of `call` (tool `tool`, `definition`, `input`) with the
   * answers its questions got so far, and starts it; resolves once any
   * instance can read it.
   */
  async create(
    call: McpCall,
    tool: string,
    definition: OperationDefinition,
    input: unknown,
    answers: ReadonlyMap<string, unknown>,
  ): Promise<TaskRecord> {
    const now = Date.now();
    const { caller } = call.transport;
    const record: TaskRecord = {
      id: randomBytes(18).toString('base64url'),
      owner: this.ownerOf(call),
      tool,
      operationId: definition.id,
      input,
      caller: {
        headers: caller.headers,
        ...(caller.request ? { request: snapshot(caller.request) } : {}),
        ...(caller.locale !== undefined ? { locale: caller.locale } : {}),
        capabilities: call.request.meta?.clientCapabilities ?? {},
      },
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.settings.tasks.ttl,
      answers: Object.fromEntries(answers),
    };
    await this.store.create(record);
    await this.engine.start(record.id);
    return record;
  }

  /** `tools/call`'s answer for the task `record`. */
  created(record: TaskRecord): object {
    return createTaskResult(record, this.settings.tasks.pollInterval);
  }

  /** `tasks/get`, `tasks/update` or `tasks/cancel`. */
  async answer(call: McpCall): Promise<object> {
    if (!negotiated(call)) {
      throw McpProtocolError.missingClientCapability({
        extensions: { [TASKS_EXTENSION]: {} },
      });
    }
    const record = await this.ownTask(call);
    switch (call.request.method) {
      case 'tasks/get':
        return this.writer.modern(
          detailedTask(record, this.settings.tasks.pollInterval),
        );
      case 'tasks/update':
        await this.update(record, call.request.params.inputResponses);
        return this.writer.modern({});
      default:
        await this.cancel(record);
        return this.writer.modern({});
    }
  }

  /** Takes the answers to questions the task waits on; runs it again once none is left. */
  private async update(record: TaskRecord, responses: unknown): Promise<void> {
    if (
      typeof responses !== 'object' ||
      responses === null ||
      Array.isArray(responses)
    ) {
      throw McpProtocolError.invalidTaskParams(
        'tasks/update needs an object "inputResponses"',
      );
    }
    let resume = false;
    await this.store.update(record.id, (now) => {
      const pending = { ...now.inputRequests };
      const answers = { ...now.answers };
      let taken = false;
      for (const [key, response] of Object.entries(responses)) {
        if (now.status === 'input_required' && key in pending) {
          answers[key] = response;
          delete pending[key];
          taken = true;
        }
      }
      if (!taken) {
        return undefined; // Unknown keys, or nothing awaited: ignored.
      }
      resume = Object.keys(pending).length === 0;
      return {
        ...now,
        answers,
        lastUpdatedAt: Date.now(),
        ...(resume
          ? {
              status: 'working',
              statusMessage: undefined,
              inputRequests: undefined,
            }
          : { inputRequests: pending }),
      };
    });
    if (resume) {
      await this.engine.start(record.id);
    }
  }

  private async cancel(record: TaskRecord): Promise<void> {
    const now = await this.store.update(record.id, (current) =>
      TERMINAL.has(current.status)
        ? undefined
        : {
            ...current,
            status: 'cancelled',
            statusMessage: 'Cancelled by the client.',
            inputRequests: undefined,
            lastUpdatedAt: Date.now(),
          },
    );
    if (now?.status === 'cancelled') {
      await this.engine.abort(record.id).catch((error: unknown) => {
        this.logger.warn(`Task ${record.id} could not be aborted: ${error}`);
      });
    }
  }

  /** The task the request names, when it is the caller's; else `-32602`. */
  private async ownTask(call: McpCall): Promise<TaskRecord> {
    const { taskId } = call.request.params;
    if (typeof taskId !== 'string' || taskId.length > 200) {
      throw McpProtocolError.unknownTask(taskId);
    }
    const record = await this.store.get(taskId);
    if (!record || record.owner !== this.ownerOf(call)) {
      throw McpProtocolError.unknownTask(taskId);
    }
    return record;
  }

  /** A digest of who calls (principal, credentials, else address). */
  private ownerOf(call: McpCall): string {
    return createHash('sha256')
      .update(callerOfCall(call, this.settings.telemetry.principalId))
      .digest('base64url');
  }
}

/** Whether the request's `_meta` declares the tasks extension. */
function negotiated(call: McpCall): boolean {
  const extensions = call.request.meta?.clientCapabilities.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    TASKS_EXTENSION in extensions
  );
}

/** What the carrier's request says, as plain values a store keeps. */
function snapshot(request: NonNullable<TaskRecord['caller']['request']>) {
  const { ip, ips, hostname, protocol, method, originalUrl, url, path } =
    request;
  return JSON.parse(
    JSON.stringify({
      ip,
      ips,
      hostname,
      protocol,
      method,
      originalUrl,
      url,
      path,
    }),
  ) as typeof request;
}
