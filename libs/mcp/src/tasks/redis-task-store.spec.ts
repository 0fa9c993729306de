import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bullmq from 'bullmq';
import * as ioredis from 'ioredis';
import { Redis } from 'ioredis';
import { BullTaskEngine } from './bullmq-task-engine.js';
import { RedisTaskStore } from './redis-task-store.js';
import type { TaskRecord } from './task-record.js';

/**
 * The Redis task store on real Redis (when REDIS_URL is set): each task a
 * key that expires with it, updates from two connections (two instances)
 * never lost; and the startup errors of the bullmq engine without its
 * optional peers.
 */

const REDIS_URL = process.env.REDIS_URL;
const PREFIX = `tr-test:store:${process.pid}:${Date.now()}:`;

function task(id: string, ttlMs = 60_000): TaskRecord {
  const now = Date.now();
  return {
    id,
    owner: 'o',
    tool: 't',
    operationId: 'op',
    input: {},
    caller: { headers: {}, capabilities: {} },
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs,
    answers: {},
  };
}

/** A require from a directory with no node_modules above it: nothing is installed. */
const bare = createRequire(join(mkdtempSync(join(tmpdir(), 'bare-')), 'x.js'));

describe('the bullmq engine without its optional peers', () => {
  const settings = {
    url: 'redis://127.0.0.1:1',
    queueName: 'q',
    concurrency: 1,
    abortChannel: 'c',
  };
  const run = () => Promise.resolve();

  it('says to install bullmq', async () => {
    await expect(
      BullTaskEngine.connect(run, settings, (name) =>
        name === 'bullmq' ? bare('bullmq') : ioredis,
      ),
    ).rejects.toThrow(
      "McpModule's tasks.engine 'bullmq' needs the bullmq package (5 or 6): npm install bullmq",
    );
  });

  it('says to install ioredis', async () => {
    await expect(
      BullTaskEngine.connect(run, settings, (name) =>
        name === 'bullmq' ? bullmq : bare('ioredis'),
      ),
    ).rejects.toThrow(
      "McpModule's redis option needs the ioredis package (5 or 6): npm install ioredis",
    );
    await expect(
      RedisTaskStore.connect(settings.url, PREFIX, () => bare('ioredis')),
    ).rejects.toThrow('needs the ioredis package');
  });
});

describe('the bullmq engine without Redis', () => {
  it('fails the start, naming the server without its password', async () => {
    const url = 'redis://user:s3cret@127.0.0.1:1';
    await expect(RedisTaskStore.connect(url, PREFIX)).rejects.toThrow(
      /^McpModule's redis option: cannot connect to redis:\/\/user:\*\*\*@127\.0\.0\.1:1: connect ECONNREFUSED/,
    );
    await expect(
      BullTaskEngine.connect(() => Promise.resolve(), {
        url,
        queueName: 'q',
        concurrency: 1,
        abortChannel: 'c',
      }),
    ).rejects.toThrow(/cannot connect to redis:\/\/user:\*\*\*@127/);
  });
});

describe.runIf(REDIS_URL)('the Redis task store', () => {
  let stores: RedisTaskStore[];
  let redis: Redis;

  beforeAll(async () => {
    stores = [
      await RedisTaskStore.connect(REDIS_URL!, PREFIX),
      await RedisTaskStore.connect(REDIS_URL!, PREFIX),
    ];
    redis = new Redis(REDIS_URL!);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    await redis.quit();
    await Promise.all(stores.map((store) => store.close()));
  });

  it('keeps each task under its key until its time to live ends, readable from any connection', async () => {
    const record = task('a', 60_000);
    await stores[0].create(record);

    expect(await stores[1].get('a')).toEqual(record);
    const left = await redis.pttl(`${PREFIX}a`);
    expect(left).toBeGreaterThan(55_000);
    expect(left).toBeLessThanOrEqual(60_000);
    await expect(stores[1].create(record)).rejects.toThrow('exists already');
    expect(await stores[0].get('unknown')).toBeUndefined();
  });

  it('drops a task whose time to live ended', async () => {
    await stores[0].create(task('short', 150));
    expect(await stores[1].get('short')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await stores[1].get('short')).toBeUndefined();
    expect(await redis.exists(`${PREFIX}short`)).toBe(0);
    expect(await stores[0].update('short', (now) => now)).toBeUndefined();
  });

  it('loses no update when two instances change one task at once', async () => {
    await stores[0].create(task('b'));
    const updates = Array.from({ length: 60 }, (_, n) =>
      stores[n % 2].update('b', (now) => ({
        ...now,
        answers: { ...now.answers, [`k${n}`]: n },
      })),
    );
    await Promise.all(updates);

    const stored = await stores[0].get('b');
    expect(Object.keys(stored!.answers)).toHaveLength(60);
    const unchanged = await stores[1].update('b', () => undefined);
    expect(unchanged).toEqual(stored);
  });
});
