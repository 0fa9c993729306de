import type { DataSource } from 'typeorm';
import { CallQueue, callQueueOf } from './call-queue.js';

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('CallQueue', () => {
  it('runs work one at a time, in arrival order', async () => {
    const queue = new CallQueue();
    const order: string[] = [];
    const first = deferred();
    const a = queue.run(async () => {
      order.push('a:start');
      await first.promise;
      order.push('a:end');
    });
    const b = queue.run(async () => {
      order.push('b');
    });
    await Promise.resolve();
    first.resolve();
    await Promise.all([a, b]);

    expect(order).toEqual(['a:start', 'a:end', 'b']);
  });

  it('never starts work whose signal aborted while it waited: it rejects with the reason', async () => {
    const queue = new CallQueue();
    const first = deferred();
    const running = queue.run(() => first.promise);
    const controller = new AbortController();
    let started = false;
    const queued = queue.run(async () => {
      started = true;
    }, controller.signal);
    const reason = new Error('timed out in the queue');
    controller.abort(reason);
    first.resolve();
    await running;

    await expect(queued).rejects.toBe(reason);
    expect(started).toBe(false);
    // The queue goes on after it.
    await expect(queue.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});

describe('callQueueOf', () => {
  /** What callQueueOf reads of a data source: its driver type. */
  const dataSourceOf = (type: string) =>
    ({ options: { type } }) as unknown as DataSource;

  it.each([
    'better-sqlite3',
    'sqlite',
    'capacitor',
    'cordova',
    'expo',
    'nativescript',
    'react-native',
    'sqljs',
  ])('queues the calls on %s, whose data source is one connection', (type) => {
    expect(callQueueOf(dataSourceOf(type))).toBeInstanceOf(CallQueue);
  });

  it.each(['postgres', 'mysql', 'mariadb', 'mssql', 'oracle', 'cockroachdb'])(
    'leaves the calls on %s concurrent: a pool of connections',
    (type) => {
      expect(callQueueOf(dataSourceOf(type))).toBeUndefined();
    },
  );

  it('keeps one queue per data source', () => {
    const one = dataSourceOf('better-sqlite3');
    const other = dataSourceOf('better-sqlite3');
    expect(callQueueOf(one)).toBe(callQueueOf(one));
    expect(callQueueOf(one)).not.toBe(callQueueOf(other));
  });
});
