import type { CarrierRequest } from '@nestops/operations/internal';

/** The extension's id, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a task stands. */
export type TaskStatus =
  'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
]);

/** A question the task waits on: what `inputRequests` lists. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: object;
}

/** What a task keeps of the request that created it, to run it on any instance. */
export interface TaskCaller {
  /** The request's headers: credentials, language, correlation id, the app's own. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** What the request said of the caller's address and the endpoint. */
  readonly request?: CarrierRequest;
  /** The language given apart from the headers. */
  readonly locale?: string;
  /** What the client declared it can answer (its questions' capabilities). */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/**
 * One task, as stored (JSON: in memory or in Redis): who owns it, what it
 * runs, where it stands and, once it ended, its answer.
 */
export interface TaskRecord {
  readonly id: string;
  /** A digest of the caller that created it; every task method checks it. */
  readonly owner: string;
  /** The tool called, and its operation. */
  readonly tool: string;
  readonly operationId: string;
  /** The call's arguments. */
  readonly input: unknown;
  readonly caller: TaskCaller;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  readonly ttlMs: number;
  /** The answers the task's questions got so far, by key. */
  readonly answers: Readonly<Record<string, unknown>>;
  /** The questions it waits on (`input_required`), by key. */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** The tool's result, once `completed`. */
  readonly result?: object;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: { code: number; message: string; data?: unknown };
}

/** The members of the `Task` every task answer carries. */
function taskFields(record: TaskRecord, pollIntervalMs: number): object {
  return {
    taskId: record.id,
    status: record.status,
    ...(record.statusMessage !== undefined
      ? { statusMessage: record.statusMessage }
      : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs,
  };
}

/** `tools/call`'s answer when the call became `record`: `resultType: "task"`. */
export function createTaskResult(
  record: TaskRecord,
  pollIntervalMs: number,
): object {
  return { resultType: 'task', ...taskFields(record, pollIntervalMs) };
}

/** `tasks/get`'s answer: the task, with its result, error or questions as it stands. */
export function detailedTask(
  record: TaskRecord,
  pollIntervalMs: number,
): object {
  return {
    resultType: 'complete',
    ...taskFields(record, pollIntervalMs),
    ...(record.status === 'completed' && record.result
      ? { result: record.result }
      : {}),
    ...(record.status === 'failed' && record.error
      ? { error: record.error }
      : {}),
    ...(record.status === 'input_required' && record.inputRequests
      ? { inputRequests: record.inputRequests }
      : {}),
  };
}

/** Whether `record` has outlived its time to live at `now`. */
export function expired(record: TaskRecord, now = Date.now()): boolean {
  return record.createdAt + record.ttlMs <= now;
}
