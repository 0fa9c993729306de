import type { TaskEngine, TaskRun } from './task-engine.js';

/** Tasks run in this process: each at once, in the background, until it ends. */
export class MemoryTaskEngine implements TaskEngine {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly run: TaskRun) {}

  start(id: string): Promise<void> {
    const controller = new AbortController();
    this.running.get(id)?.abort();
    this.running.set(id, controller);
    setImmediate(() => {
      this.run(id, controller.signal)
        .catch(() => undefined)
        .finally(() => {
          if (this.running.get(id) === controller) {
            this.running.delete(id);
          }
        });
    });
    return Promise.resolve();
  }

  abort(id: string): Promise<void> {
    this.running.get(id)?.abort();
    return Promise.resolve();
  }

  close(): Promise<void> {
    for (const controller of this.running.values()) {
      controller.abort();
    }
    this.running.clear();
    return Promise.resolve();
  }
}
