import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { type RunningApp, startApp } from '../support/start-app';
import {
  dropKeys,
  instanceModule,
  RUNS,
  taskRequest,
  taskResult,
  waitForTask,
} from './tasks-redis-fixture';

/**
 * Tasks on two instances of one app in this process sharing Redis
 * (`tasks.engine: 'bullmq'`), over raw 2026-07-28 JSON-RPC: any instance
 * answers, updates and cancels a task another created or runs; a cancel
 * reaches the instance running it (its writes rolled back). Runs when
 * REDIS_URL is set; its queue and keys are named `tr-test-…`.
 */

const REDIS_URL = process.env.REDIS_URL;
const QUEUE = `tr-test-${process.pid}-${randomBytes(4).toString('hex')}`;

describe.runIf(REDIS_URL)('tasks on two instances (bullmq engine)', () => {
  const apps: Partial<Record<'A' | 'B', RunningApp>> = {};
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
    rows = apps.B.app.get(DataSource);
  });
  afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app?.close()));
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
      taskRequest(apps[on]!.baseUrl, 'tools/call', { name, arguments: args }),
    );
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    return created.taskId as string;
  }

  it('answers tasks/get on B for a task created on A, with its result once done', async () => {
    const taskId = await create('A', 'rows_slow', { label: 'get', seconds: 0 });

    const done = await waitForTask(apps.B!.baseUrl, taskId, [
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
    const waiting = await waitForTask(apps.B!.baseUrl, taskId, [
      'input_required',
    ]);
    expect(waiting.inputRequests).toMatchObject({
      sure: { method: 'elicitation/create' },
    });

    const updated = await taskResult(
      taskRequest(apps.B!.baseUrl, 'tasks/update', {
        taskId,
        inputResponses: { sure: { action: 'accept', content: { ok: true } } },
      }),
    );
    expect(updated).toMatchObject({ resultType: 'complete' });

    const done = await waitForTask(apps.A!.baseUrl, taskId, [
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
      apps.A!.baseUrl,
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
      taskRequest(apps[other]!.baseUrl, 'tasks/cancel', { taskId }),
    );
    expect(cancelled).toMatchObject({ resultType: 'complete' });

    await vi.waitFor(() => expect(RUNS.aborted.has(label)).toBe(true), {
      timeout: 5_000,
    });
    const task = await waitForTask(apps[ranOn]!.baseUrl, taskId, ['cancelled']);
    expect(task.status).toBe('cancelled');
    // Long enough for a run that went on to write its second row.
    await sleep(500);
    expect((await labels()).filter((row) => row.startsWith(label))).toEqual([]);
  });

  it("answers another caller's task on either instance as an unknown one", async () => {
    const taskId = await create('A', 'rows_slow', { label: 'own', seconds: 0 });
    for (const on of ['A', 'B'] as const) {
      const answer = await taskRequest(
        apps[on]!.baseUrl,
        'tasks/get',
        { taskId },
        { 'X-Forwarded-For': '10.1.2.3', Authorization: 'Bearer someone-else' },
      );
      expect(answer.json()).toMatchObject({ error: { code: -32602 } });
    }
  });

  // Last: it closes A, whose rows the other tests read through B.
  it('hands a run still going at shutdown to the other instance, its first writes rolled back', async () => {
    const label = `handover-${randomBytes(3).toString('hex')}`;
    const taskId = await create('B', 'rows_slow', { label, seconds: 6 });
    await vi.waitFor(() => expect(RUNS.started.get(label)).toHaveLength(1), {
      timeout: 10_000,
    });
    const first = RUNS.started.get(label)![0] as 'A' | 'B';
    const other = first === 'A' ? 'B' : 'A';
    rows = apps[other]!.app.get(DataSource);

    await apps[first]!.close();
    delete apps[first];

    const done = await waitForTask(apps[other]!.baseUrl, taskId, [
      'completed',
      'failed',
    ]);
    expect(done).toMatchObject({
      status: 'completed',
      result: { structuredContent: { instance: other, label } },
    });
    expect(RUNS.started.get(label)).toEqual([first, other]);
    expect(RUNS.aborted.has(label)).toBe(true);
    expect((await labels()).filter((row) => row.startsWith(label))).toEqual([
      `${label} 1`,
      `${label} 2`,
    ]);
  }, 60_000);
});
