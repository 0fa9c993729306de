import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { envWith, sampleEnv } from '../support/sample-app';
import {
  type SampleProcess,
  startSampleProcess,
} from '../support/sample-process';
import { type RunningApp, startApp } from '../support/start-app';
import {
  instanceModule,
  RUNS,
  taskRequest,
  taskResult,
  waitForTask,
} from './tasks-redis-fixture';

/**
 * Tasks on two instances sharing Redis (`tasks.engine: 'bullmq'`), over
 * raw 2026-07-28 JSON-RPC: any instance answers, updates and cancels a
 * task another created or runs; a cancel reaches the instance running it
 * (its writes rolled back); a task whose instance is killed (SIGKILL)
 * mid-run is finished by the other, its orders written once. Runs when
 * REDIS_URL is set; its queues and keys are named `tr-test-…`.
 */

const REDIS_URL = process.env.REDIS_URL;
const QUEUE = `tr-test-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Deletes the keys of the queue `queue` (BullMQ's and the tasks'). */
async function dropKeys(queue: string): Promise<void> {
  const redis = new Redis(REDIS_URL!);
  try {
    for (const pattern of [`bull:${queue}:*`, `nestops:mcp:tasks:${queue}:*`]) {
      const keys = await redis.keys(pattern);
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    }
  } finally {
    await redis.quit();
  }
}

describe.runIf(REDIS_URL)('tasks on two instances (bullmq engine)', () => {
  const apps: Record<'A' | 'B', RunningApp> = {} as never;
  let rows: DataSource;

  beforeAll(async () => {
    const database = join(
      mkdtempSync(join(tmpdir(), 'tasks-redis-')),
      'db.sqlite',
    );
    // One after the other: A makes the table.
    apps.A = await startApp(instanceModule('A', REDIS_URL!, QUEUE, database), {
      logger: ['error'],
    });
    apps.B = await startApp(instanceModule('B', REDIS_URL!, QUEUE, database), {
      logger: ['error'],
    });
    rows = apps.A.app.get(DataSource);
  });
  afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await dropKeys(QUEUE);
  });

  async function labels(): Promise<string[]> {
    const found = (await rows.query(
      'SELECT label FROM task_rows ORDER BY id',
    )) as { label: string }[];
    return found.map((row) => row.label);
  }

  async function create(on: 'A' | 'B', name: string, args: object) {
    const created = await taskResult(
      taskRequest(apps[on].baseUrl, 'tools/call', { name, arguments: args }),
    );
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    return created.taskId as string;
  }

  it('answers tasks/get on B for a task created on A, with its result once done', async () => {
    const taskId = await create('A', 'rows_slow', { label: 'get', seconds: 0 });

    const done = await waitForTask(apps.B.baseUrl, taskId, [
      'completed',
      'failed',
    ]);

    expect(done).toMatchObject({
      status: 'completed',
      result: { structuredContent: { label: 'get' } },
    });
    expect(await labels()).toEqual(expect.arrayContaining(['get 1', 'get 2']));
  });

  it('takes the answer of tasks/update on B, and the task runs on to completed', async () => {
    const taskId = await create('A', 'rows_confirm', {});
    const waiting = await waitForTask(apps.B.baseUrl, taskId, [
      'input_required',
    ]);
    expect(waiting.inputRequests).toMatchObject({
      sure: { method: 'elicitation/create' },
    });

    const updated = await taskResult(
      taskRequest(apps.B.baseUrl, 'tasks/update', {
        taskId,
        inputResponses: { sure: { action: 'accept', content: { ok: true } } },
      }),
    );
    expect(updated).toMatchObject({ resultType: 'complete' });

    const done = await waitForTask(apps.A.baseUrl, taskId, [
      'completed',
      'failed',
    ]);
    expect(done).toMatchObject({
      status: 'completed',
      result: { structuredContent: { confirmed: true } },
    });
  });

  it("aborts the run on the other instance on tasks/cancel, and its transaction's write is rolled back", async () => {
    const label = `cancel-${randomBytes(3).toString('hex')}`;
    const taskId = await create('A', 'rows_slow', { label, seconds: 30 });
    // Its first row is written, in its transaction, on whichever instance took it.
    const running = await waitForTask(
      apps.A.baseUrl,
      taskId,
      ['working'],
      {},
      10_000,
    );
    await vi.waitFor(() => expect(RUNS.started.get(label)).toHaveLength(1), {
      timeout: 10_000,
    });
    const ranOn = RUNS.started.get(label)![0] as 'A' | 'B';
    const other = ranOn === 'A' ? 'B' : 'A';
    expect(running.status).toBe('working');

    const cancelled = await taskResult(
      taskRequest(apps[other].baseUrl, 'tasks/cancel', { taskId }),
    );
    expect(cancelled).toMatchObject({ resultType: 'complete' });

    await vi.waitFor(() => expect(RUNS.aborted.has(label)).toBe(true), {
      timeout: 5_000,
    });
    const task = await waitForTask(apps[ranOn].baseUrl, taskId, ['cancelled']);
    expect(task.status).toBe('cancelled');
    // Long enough for a run that went on to write its second row.
    await sleep(500);
    expect((await labels()).filter((row) => row.startsWith(label))).toEqual([]);
  });

  it("answers another caller's task on either instance as an unknown one", async () => {
    const taskId = await create('A', 'rows_slow', { label: 'own', seconds: 0 });
    for (const on of ['A', 'B'] as const) {
      const answer = await taskRequest(
        apps[on].baseUrl,
        'tasks/get',
        { taskId },
        { 'X-Forwarded-For': '10.1.2.3', Authorization: 'Bearer someone-else' },
      );
      expect(answer.json()).toMatchObject({ error: { code: -32602 } });
    }
  });
});

describe.runIf(REDIS_URL)(
  'a task whose instance is killed mid-run (SIGKILL)',
  () => {
    const queue = `${QUEUE}-kill`;
    const HEADERS = {
      Authorization: 'ApiKey dev-alice-key',
      'X-Tenant-Id': 'acme',
    };
    const processes: SampleProcess[] = [];
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      const vars = (await sampleEnv('sqlite')).vars;
      env = {
        ...envWith(vars),
        MCP_TASKS_ENGINE: 'bullmq',
        MCP_TASKS_QUEUE: queue,
        REDIS_URL,
      };
    });
    afterAll(async () => {
      for (const sample of processes) {
        sample.child.kill('SIGKILL');
        await sample.exited;
      }
      await dropKeys(queue);
    });

    it('is finished by the other instance, each of its orders written once', async () => {
      const a = await startSampleProcess(env);
      processes.push(a);
      const orders = Array.from({ length: 1000 }, (_, n) => ({
        name: `killed-${n}`,
        amount: 1 + (n % 50),
      }));
      const created = await taskResult(
        taskRequest(
          a.baseUrl,
          'tools/call',
          { name: 'orders_import', arguments: { orders } },
          HEADERS,
        ),
      );
      const taskId = created.taskId as string;
      // Mid-run on A (the only instance): some orders saved, not all.
      const mid = await waitForTaskMessage(a.baseUrl, taskId, HEADERS);
      a.child.kill('SIGKILL');
      expect(await a.exited).toMatchObject({ signal: 'SIGKILL' });

      const b = await startSampleProcess(env);
      processes.push(b);
      const done = await waitForTask(
        b.baseUrl,
        taskId,
        ['completed', 'failed', 'cancelled'],
        HEADERS,
        60_000,
      );

      expect(mid).toMatch(/^\d+\/1000: /);
      expect(done).toMatchObject({
        status: 'completed',
        result: { structuredContent: { created: 1000 } },
      });
      // A's transaction died with it: B wrote every order, once.
      expect(await countOrders(b.baseUrl)).toBe(1000);
    }, 120_000);

    /** The task's status message once it reports progress short of the end. */
    async function waitForTaskMessage(
      baseUrl: string,
      taskId: string,
      headers: Record<string, string>,
    ): Promise<string> {
      for (let tries = 0; tries < 2000; tries++) {
        const task = await taskResult(
          taskRequest(baseUrl, 'tasks/get', { taskId }, headers),
        );
        const message = task.statusMessage as string | undefined;
        if (task.status !== 'working') {
          throw new Error(
            `the task ended before the kill: ${JSON.stringify(task)}`,
          );
        }
        if (message && !message.startsWith('1000/')) {
          return message;
        }
        await sleep(5);
      }
      throw new Error('the task never reported progress');
    }

    /** How many orders the tenant has, page by page. */
    async function countOrders(baseUrl: string): Promise<number> {
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = await taskResult<{
          structuredContent: { items: unknown[]; nextCursor?: string };
        }>(
          taskRequest(
            baseUrl,
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
  },
);
