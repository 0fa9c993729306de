/** What runs one task on an instance: resolves when the run ends or stops at a question. */
export type TaskRun = (id: string, signal: AbortSignal) => Promise<void>;

/**
 * What runs tasks: in this process (`memory`), or as jobs of a queue any
 * instance works (`bullmq`).
 */
export interface TaskEngine {
  /** Runs `run` for the task `id`, now or on whichever instance takes it. */
  start(id: string): Promise<void>;
  /** Aborts the task's run, wherever it runs (its status is already `cancelled`). */
  abort(id: string): Promise<void>;
  /** Stops taking tasks and lets go of what the engine holds. */
  close(): Promise<void>;
}

/** The token of the app's `TaskEngine`. */
export const TASK_ENGINE = Symbol('nestops:mcp:task-engine');
