import type { DataSource } from 'typeorm';

/**
 * TypeORM drivers that hold one database connection for the whole data
 * source: every query runner is the same one, so two transactions at once
 * would nest into each other instead of being kept apart.
 */
const SINGLE_CONNECTION_DRIVERS: ReadonlySet<string> = new Set([
  'better-sqlite3',
  'sqlite',
  'capacitor',
  'cordova',
  'expo',
  'nativescript',
  'react-native',
  'sqljs',
]);

/** Runs the work given to it one at a time, in arrival order. */
export class CallQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs `work` once every earlier work has settled. Work whose `signal`
   * is aborted while it waits does not start: it rejects with the reason.
   */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const turn = this.tail.then(() => {
      signal?.throwIfAborted();
      return work();
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}

const queues = new WeakMap<DataSource, CallQueue>();

/**
 * The queue that serialises the calls on `dataSource` when its driver has a
 * single connection (SQLite); undefined when it has a pool (PostgreSQL).
 */
export function callQueueOf(dataSource: DataSource): CallQueue | undefined {
  if (!SINGLE_CONNECTION_DRIVERS.has(dataSource.options.type)) {
    return undefined;
  }
  let queue = queues.get(dataSource);
  if (!queue) {
    queue = new CallQueue();
    queues.set(dataSource, queue);
  }
  return queue;
}
