import {
  type RedisConnection,
  RedisConnections,
} from '../protocol/redis-connections.js';
import { expired, type TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';

/** What the store uses of an ioredis client: any command, by name. */
export interface RedisCommands extends RedisConnection {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** Sets the key to ARGV[2] (expiring at ARGV[3]) only while it still holds ARGV[1]. */
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
return 1`;

/** How often one `update` tries again after another instance changed the task first. */
const MAX_TRIES = 100;

/**
 * The tasks of every instance, in Redis: each task one key (its JSON,
 * `keyPrefix` and its id) that expires with the task's time to live. An
 * `update` reads the task, applies the change and writes it only if the
 * key still holds what it read (a compare-and-set script), else reads
 * again: two instances never overwrite each other's change.
 */
export class RedisTaskStore implements TaskStore {
  constructor(
    private readonly redis: RedisCommands,
    private readonly keyPrefix: string,
  ) {}

  /**
   * A store on its own connection to `url` (ioredis, from `load`), made at
   * once; a startup error when ioredis is missing or Redis cannot be reached.
   */
  static async connect(
    url: string,
    keyPrefix: string,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with the bullmq engine
    load: () => unknown = () => require('ioredis'),
  ): Promise<RedisTaskStore> {
    const redis = await new RedisConnections(
      url,
      'tasks',
      load,
    ).connect<RedisCommands>();
    return new RedisTaskStore(redis, keyPrefix);
  }

  async create(record: TaskRecord): Promise<void> {
    const stored = await this.redis.call(
      'SET',
      this.keyOf(record.id),
      JSON.stringify(record),
      'PXAT',
      endOf(record),
      'NX',
    );
    if (stored !== 'OK') {
      throw new Error(`task ${record.id} exists already`);
    }
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    return (await this.read(id))?.record;
  }

  async update(
    id: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const current = await this.read(id);
      if (!current) {
        return undefined;
      }
      const changed = change(current.record);
      if (!changed) {
        return current.record;
      }
      const set = await this.redis.call(
        'EVAL',
        COMPARE_AND_SET,
        1,
        this.keyOf(id),
        current.text,
        JSON.stringify(changed),
        endOf(changed),
      );
      if (set === 1) {
        return changed;
      }
    }
    throw new Error(
      `task ${id} changed ${MAX_TRIES} times while this instance updated it`,
    );
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** The task as stored (its text, to compare and set), unless unknown or expired. */
  private async read(
    id: string,
  ): Promise<{ text: string; record: TaskRecord } | undefined> {
    const text = await this.redis.call('GET', this.keyOf(id));
    if (typeof text !== 'string') {
      return undefined;
    }
    const record = JSON.parse(text) as TaskRecord;
    return expired(record) ? undefined : { text, record };
  }

  private keyOf(id: string): string {
    return `${this.keyPrefix}${id}`;
  }
}

/** When the task's key expires: the end of its time to live, in ms since the epoch. */
function endOf(record: TaskRecord): number {
  return record.createdAt + record.ttlMs;
}
