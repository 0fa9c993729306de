import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryTaskStore } from './memory-task-store';
import type { TaskRecord } from './task-record';
import { taskReporter } from './task-reporter';

const task: TaskRecord = {
  id: 't',
  owner: 'o',
  tool: 'x',
  operationId: 'x.run',
  input: {},
  caller: { headers: {}, capabilities: {} },
  status: 'working',
  createdAt: Date.now(),
  lastUpdatedAt: Date.now(),
  ttlMs: 60_000,
  answers: {},
};

/** A memory store that lists the status messages it stores. */
class WatchedStore extends MemoryTaskStore {
  readonly written: string[] = [];

  override update(
    id: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    return super.update(id, (now) => {
      const next = change(now);
      if (next?.statusMessage) this.written.push(next.statusMessage);
      return next;
    });
  }
}

describe('taskReporter', () => {
  it('stores the first report at once, then the latest at most every interval', async () => {
    const store = new WatchedStore();
    await store.create(task);
    const { written } = store;
    const reporter = taskReporter(store, 't', 100);

    for (let n = 1; n <= 500; n++) {
      reporter.progress(n, 500, 'rows');
    }
    await sleep(10);
    expect(written).toEqual(['1/500: rows']);
    await sleep(150);
    expect(written).toEqual(['1/500: rows', '500/500: rows']);
    expect((await store.get('t'))?.statusMessage).toBe('500/500: rows');

    // Once the task ended, a late report changes nothing.
    await store.update('t', (now) => ({ ...now, status: 'completed' }));
    reporter.progress(501, 501);
    await sleep(150);
    expect((await store.get('t'))?.statusMessage).toBe('500/500: rows');
    await store.close();
  });
});
