import { expired, type TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';

/** How often expired tasks are swept out, in milliseconds. */
const SWEEP_MS = 60_000;

/** The tasks of one instance, in its memory, each until its time to live ends. */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_MS);

  constructor() {
    this.sweeper.unref();
  }

  create(record: TaskRecord): Promise<void> {
    this.tasks.set(record.id, record);
    return Promise.resolve();
  }

  get(id: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.current(id));
  }

  update(
    id: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    const record = this.current(id);
    if (!record) {
      return Promise.resolve(undefined);
    }
    const changed = change(record);
    if (changed) {
      this.tasks.set(id, changed);
    }
    return Promise.resolve(changed ?? record);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    return Promise.resolve();
  }

  private current(id: string): TaskRecord | undefined {
    const record = this.tasks.get(id);
    if (record && expired(record)) {
      this.tasks.delete(id);
      return undefined;
    }
    return record;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.tasks) {
      if (expired(record, now)) {
        this.tasks.delete(id);
      }
    }
  }
}
