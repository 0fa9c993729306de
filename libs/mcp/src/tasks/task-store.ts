import type { TaskRecord } from './task-record.js';

/**
 * Where tasks are kept: in memory on one instance, in Redis across several.
 * Every change goes through `update`, applied to the record as it is now,
 * so two instances never overwrite each other's change.
 */
export interface TaskStore {
  /** Stores a new task; resolves once any instance can read it. */
  create(record: TaskRecord): Promise<void>;
  /** The task with `id`; undefined: unknown or expired. */
  get(id: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `change` to the task as it is now and stores what it returns
   * (undefined: nothing to change). Resolves with the task as stored after
   * it; undefined: unknown or expired.
   */
  update(
    id: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>;
  /** Lets go of what the store holds (connections, timers). */
  close(): Promise<void>;
}

/** The token of the app's `TaskStore`. */
export const TASK_STORE = Symbol('nestops:mcp:task-store');
