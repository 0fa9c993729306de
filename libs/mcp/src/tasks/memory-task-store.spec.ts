import { MemoryTaskStore } from './memory-task-store';
import type { TaskRecord } from './task-record';

const task = (id: string, createdAt = Date.now()): TaskRecord => ({
  id,
  owner: 'o',
  tool: 't',
  operationId: 'x.run',
  input: {},
  caller: { headers: {}, capabilities: {} },
  status: 'working',
  createdAt,
  lastUpdatedAt: createdAt,
  ttlMs: 1000,
  answers: {},
});

describe('MemoryTaskStore', () => {
  let store: MemoryTaskStore;
  beforeEach(() => (store = new MemoryTaskStore()));
  afterEach(() => store.close());

  it('reads what was created, and applies changes to the task as it is now', async () => {
    await store.create(task('a'));
    const changed = await store.update('a', (now) => ({
      ...now,
      status: 'completed',
    }));
    expect(changed?.status).toBe('completed');
    expect((await store.get('a'))?.status).toBe('completed');
    // A change that returns nothing leaves the task as it is.
    expect((await store.update('a', () => undefined))?.status).toBe(
      'completed',
    );
  });

  it('forgets a task past its time to live, on every method', async () => {
    await store.create(task('old', Date.now() - 2000));
    expect(await store.get('old')).toBeUndefined();
    expect(await store.update('old', (now) => now)).toBeUndefined();
    expect(await store.get('missing')).toBeUndefined();
  });
});
