import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { withClient } from '../support/pg-schema';
import { envWith, sampleEnv, type EnvVars } from '../support/sample-app';
import {
  type SampleProcess,
  startSampleProcess,
} from '../support/sample-process';
import {
  dropKeys,
  taskRequest,
  taskResult,
  waitForTask,
} from './tasks-redis-fixture';

/**
 * The sample (`dist/src/main.js`) as two processes sharing Redis
 * (MCP_TASKS_ENGINE=bullmq) and a database: a task whose instance is
 * killed (SIGKILL) mid-run is finished by the other, its orders written
 * once; one whose instance stops (SIGSTOP) mid-run is finished by the
 * other too, and the first run, once it goes on, writes nothing (the
 * result committed under the task's id is there). Runs when REDIS_URL is
 * set (the second on PostgreSQL: DATABASE_URL); queues named `tr-test-…`.
 */

const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;
const QUEUE = `tr-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const HEADERS = {
  Authorization: 'ApiKey dev-alice-key',
  'X-Tenant-Id': 'acme',
};

/** 1000 orders for one `orders_import`, named `<prefix>-<n>`. */
function importOf(prefix: string) {
  return {
    orders: Array.from({ length: 1000 }, (_, n) => ({
      name: `${prefix}-${n}`,
      amount: 1 + (n % 50),
    })),
  };
}

/** Processes of the sample on `vars`' database and the queue `queue`; all killed after the tests. */
function samples(queue: string, database: 'sqlite' | 'postgres') {
  const processes: SampleProcess[] = [];
  let made: { vars: EnvVars; dispose(): Promise<void> } | undefined;
  beforeAll(async () => {
    made = await sampleEnv(database);
  });
  afterAll(async () => {
    for (const sample of processes) {
      sample.child.kill('SIGCONT');
      sample.child.kill('SIGKILL');
      await sample.exited;
    }
    await dropKeys(queue);
    await made?.dispose();
  });
  return {
    schema: () => made!.vars.DATABASE_SCHEMA!,
    async start(): Promise<SampleProcess> {
      const sample = await startSampleProcess({
        ...envWith(made!.vars),
        MCP_TASKS_ENGINE: 'bullmq',
        MCP_TASKS_QUEUE: queue,
        REDIS_URL,
      });
      processes.push(sample);
      return sample;
    },
  };
}

/** Creates an import of 1000 orders on `sample`; resolves with its id once it ran part of it. */
async function importUnderWay(
  sample: SampleProcess,
  prefix: string,
): Promise<string> {
  const created = await taskResult(
    taskRequest(
      sample.baseUrl,
      'tools/call',
      { name: 'orders_import', arguments: importOf(prefix) },
      HEADERS,
    ),
  );
  const taskId = created.taskId as string;
  for (let tries = 0; tries < 2000; tries++) {
    const task = await taskResult(
      taskRequest(sample.baseUrl, 'tasks/get', { taskId }, HEADERS),
    );
    const message = task.statusMessage as string | undefined;
    if (task.status !== 'working') {
      throw new Error(`the task ended too soon: ${JSON.stringify(task)}`);
    }
    if (
      message &&
      /^\d+\/1000: /.test(message) &&
      !message.startsWith('1000/')
    ) {
      return taskId;
    }
    await sleep(5);
  }
  throw new Error('the task never reported progress');
}

/** Polls the task on `sample` until it ended; expects it completed with 1000 orders. */
async function completedOn(sample: SampleProcess, taskId: string) {
  const done = await waitForTask(
    sample.baseUrl,
    taskId,
    ['completed', 'failed', 'cancelled'],
    HEADERS,
    60_000,
  );
  expect(done).toMatchObject({
    status: 'completed',
    result: { structuredContent: { created: 1000 } },
  });
  return done;
}

/** How many orders the tenant has, page by page over MCP. */
async function countOrders(sample: SampleProcess): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await taskResult<{
      structuredContent: { items: unknown[]; nextCursor?: string };
    }>(
      taskRequest(
        sample.baseUrl,
        'tools/call',
        {
          name: 'orders_list',
          arguments: { limit: 100, ...(cursor ? { cursor } : {}) },
        },
        HEADERS,
      ),
    );
    count += page.structuredContent.items.length;
    cursor = page.structuredContent.nextCursor;
  } while (cursor);
  return count;
}

describe.runIf(REDIS_URL)(
  'a task whose instance is killed mid-run (SIGKILL)',
  () => {
    const run = samples(`${QUEUE}-kill`, 'sqlite');

    it('is finished by the other instance, each of its orders written once', async () => {
      const a = await run.start();
      // Mid-run on A, the only instance: some orders saved, not all.
      const taskId = await importUnderWay(a, 'killed');
      a.child.kill('SIGKILL');
      expect(await a.exited).toMatchObject({ signal: 'SIGKILL' });

      const b = await run.start();
      await completedOn(b, taskId);
      // A's transaction died with it: B wrote every order, once.
      expect(await countOrders(b)).toBe(1000);
    }, 120_000);
  },
);

describe.runIf(REDIS_URL && DATABASE_URL)(
  'a task whose instance stops (SIGSTOP) mid-run, then goes on (PostgreSQL)',
  () => {
    const run = samples(`${QUEUE}-stop`, 'postgres');

    it('is finished by the other instance; the first run, going on, writes nothing', async () => {
      const a = await run.start();
      const taskId = await importUnderWay(a, 'stopped');
      // A holds its transaction open, frozen past its job's lock.
      a.child.kill('SIGSTOP');

      const b = await run.start();
      const done = await completedOn(b, taskId);

      // A goes on: its import ends, and meets B's result, committed first.
      a.child.kill('SIGCONT');
      await vi.waitFor(
        () => expect(a.output()).toMatch(/orders 991 to 1000 saved/),
        { timeout: 30_000, interval: 100 },
      );
      a.child.kill('SIGTERM');
      await a.exited;

      const counts = await withClient(
        DATABASE_URL!,
        async (client) => {
          const count = async (sql: string, values: unknown[] = []) =>
            Number((await client.query<{ n: string }>(sql, values)).rows[0].n);
          return [
            await count(
              "SELECT COUNT(*) AS n FROM orders WHERE name LIKE 'stopped-%'",
            ),
            await count(
              'SELECT COUNT(*) AS n FROM nestops_committed_results WHERE outcome_key = $1',
              [taskId],
            ),
          ];
        },
        run.schema(),
      );
      expect(counts).toEqual([1000, 1]);
      const after = await waitForTask(
        b.baseUrl,
        taskId,
        ['completed'],
        HEADERS,
      );
      expect(after.result).toEqual(done.result);
    }, 150_000);
  },
);
