import { setTimeout as sleep } from 'node:timers/promises';
import { McpTaskRunner } from '../../libs/mcp/src/tasks/task-runner';
import {
  TASK_STORE,
  type TaskStore,
} from '../../libs/mcp/src/tasks/task-store';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  modernHeaders,
  modernRequest,
} from '../support/modern-mcp';
import { startTasksApp, type TasksFixture } from '../fixtures/tasks-fixtures';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = {
  ...MODERN_META,
  [CAPABILITIES_KEY]: { elicitation: {}, extensions: { [TASKS]: {} } },
};

interface Task {
  taskId: string;
  status: string;
  statusMessage?: string;
  resultType: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: {
    content: { text: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  error?: { code: number; message: string; data: { code: string } };
  inputRequests?: Record<string, { method: string }>;
}

interface Answer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

let nextId = 1;

/** One 2026-07-28 request as a client that negotiated tasks sends it, as `key`. */
async function rpc(
  app: TasksFixture,
  method: string,
  params: Record<string, unknown>,
  {
    key = 'alice',
    meta = WITH_TASKS,
  }: { key?: string; meta?: Readonly<Record<string, unknown>> } = {},
): Promise<Answer> {
  const message = modernRequest(nextId++, method, params, meta);
  const response = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...modernHeaders(message),
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify(message),
  });
  const body = (await response.json()) as Omit<Answer, 'status'>;
  return { status: response.status, ...body };
}

const call = (
  app: TasksFixture,
  name: string,
  args: object,
  options?: { key?: string; meta?: Readonly<Record<string, unknown>> },
) =>
  rpc(app, 'tools/call', { name, arguments: args }, options).then(
    (answer) => answer.result as unknown as Task,
  );

const get = (app: TasksFixture, taskId: string, key = 'alice') =>
  rpc(app, 'tasks/get', { taskId }, { key }).then(
    (answer) => answer.result as unknown as Task,
  );

/** Polls the task until `done` says so (10 s at most). */
async function until(
  app: TasksFixture,
  taskId: string,
  done: (task: Task) => boolean,
): Promise<Task> {
  const end = Date.now() + 10_000;
  for (;;) {
    const task = await get(app, taskId);
    if (done(task) || Date.now() > end) {
      return task;
    }
    await sleep(50);
  }
}

const ended = (task: Task) =>
  ['completed', 'failed', 'cancelled'].includes(task.status);

describe.each(DATABASES)('tasks on $name', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }
  let app: TasksFixture;
  beforeAll(async () => {
    app = await startTasksApp(db.database);
  });
  afterAll(() => app?.close());

  it('runs a call as a task: created at once, progress, then the result inline', async () => {
    const created = await call(app, 'notes_write', {
      text: 'a',
      count: 5,
      pause: 60,
    });
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 60_000,
      pollIntervalMs: 100,
    });
    expect(created.taskId).toMatch(/^[\w-]{24}$/);
    expect(created).not.toHaveProperty('result');

    const moving = await until(app, created.taskId, (task) =>
      Boolean(task.statusMessage),
    );
    expect(moving.statusMessage).toMatch(/^\d\/5: note \d$/);

    const done = await until(app, created.taskId, ended);
    expect(done).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { structuredContent: { written: 5, taskId: created.taskId } },
    });
    expect(done.result?.content[0].text).toBe(
      `{"written":5,"taskId":"${created.taskId}"}`,
    );
    expect(await app.notes()).toBe(5);
  });

  it('cancels a task mid-way: cancelled, its writes rolled back', async () => {
    const before = await app.notes();
    const { taskId } = await call(app, 'notes_write', {
      text: 'c',
      count: 50,
      pause: 100,
    });
    await until(app, taskId, (task) => Boolean(task.statusMessage));

    const ack = await rpc(app, 'tasks/cancel', { taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(ack.result).not.toHaveProperty('status');
    expect((await get(app, taskId)).status).toBe('cancelled');
    await sleep(300);
    expect(await app.notes()).toBe(before);
    // Cancelling an ended task is acknowledged alike.
    expect((await rpc(app, 'tasks/cancel', { taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    expect((await get(app, taskId)).status).toBe('cancelled');
  });

  it("answers another caller's task exactly as an unknown one, on every method", async () => {
    const { taskId } = await call(app, 'notes_write', {
      text: 'b',
      count: 1,
      pause: 0,
    });
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/cancel', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
    ] as const) {
      const bob = await rpc(app, method, params, { key: 'bob' });
      const unknown = await rpc(
        app,
        method,
        { ...params, taskId: `${taskId.slice(0, -1)}x` },
        { key: 'alice' },
      );
      expect(bob.error?.code).toBe(-32602);
      expect(bob.error?.data).toEqual(unknown.error?.data);
      expect(bob.error?.message).toBe(
        unknown.error?.message.replace(`${taskId.slice(0, -1)}x`, taskId),
      );
    }
    expect((await until(app, taskId, ended)).status).toBe('completed');
  });

  it('ends a business failure as completed with isError, a crash as failed', async () => {
    const before = await app.notes();
    const rejected = await until(
      app,
      (await call(app, 'notes_reject', {})).taskId,
      ended,
    );
    expect(rejected).toMatchObject({
      status: 'completed',
      result: {
        isError: true,
        content: [{ text: 'BUSINESS_REJECTED_001: No, thanks.' }],
      },
    });
    expect(await app.notes()).toBe(before);

    const crashed = await until(
      app,
      (await call(app, 'notes_crash', {})).taskId,
      ended,
    );
    expect(crashed.status).toBe('failed');
    expect(crashed).not.toHaveProperty('result');
    expect(crashed.error).toMatchObject({
      code: -32603,
      data: { code: 'INTERNAL_ERROR_001' },
    });
  });

  it('asks its question as input_required, and goes on after tasks/update', async () => {
    const before = await app.notes();
    const { taskId } = await call(app, 'notes_ask', {});
    const waiting = await until(
      app,
      taskId,
      (task) => task.status !== 'working',
    );
    expect(waiting.status).toBe('input_required');
    expect(waiting.inputRequests?.yes.method).toBe('elicitation/create');
    expect(await app.notes()).toBe(before);

    const ack = await rpc(app, 'tasks/update', {
      taskId,
      inputResponses: { yes: { action: 'accept', content: { yes: true } } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(await until(app, taskId, ended)).toMatchObject({
      status: 'completed',
      result: { structuredContent: { written: 1 } },
    });
    expect(await app.notes()).toBe(before + 1);
  });

  it('refuses before any task: bad input, a refused caller', async () => {
    const invalid = await call(app, 'notes_write', { text: 'x', count: 0 });
    expect(invalid).not.toHaveProperty('taskId');
    expect(invalid).toMatchObject({ resultType: 'complete', isError: true });

    const anonymous = await call(
      app,
      'notes_write',
      { text: 'x', count: 1, pause: 0 },
      { key: 'nobody' },
    );
    expect(anonymous).not.toHaveProperty('taskId');
    expect(anonymous).toMatchObject({ isError: true });
  });

  it('serves a client without tasks the plain way; refuses it a required task and the task methods', async () => {
    const plain = await call(
      app,
      'notes_write',
      { text: 'p', count: 1, pause: 0 },
      { meta: MODERN_META },
    );
    expect(plain).toMatchObject({
      resultType: 'complete',
      structuredContent: { written: 1, taskId: null },
    });
    const required = await rpc(
      app,
      'tools/call',
      { name: 'notes_reject', arguments: {} },
      { meta: MODERN_META },
    );
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const getting = await rpc(
      app,
      'tasks/get',
      { taskId: 'x' },
      { meta: MODERN_META },
    );
    expect(getting.error?.code).toBe(-32021);
  });

  it('publishes task support in 2026 lists and discovery only', async () => {
    const list = await rpc(app, 'tools/list', {});
    const tools = list.result?.tools as {
      name: string;
      execution?: object;
    }[];
    expect(
      tools.find((tool) => tool.name === 'notes_write')?.execution,
    ).toEqual({ taskSupport: 'optional' });
    expect(
      tools.find((tool) => tool.name === 'notes_reject')?.execution,
    ).toEqual({ taskSupport: 'required' });
    const discover = await rpc(app, 'server/discover', {});
    expect(discover.result?.capabilities).toMatchObject({
      extensions: { [TASKS]: {} },
    });
  });

  it('never applies a task twice: a run that finds its result committed takes it', async () => {
    const { taskId } = await call(app, 'notes_write', {
      text: 'once',
      count: 2,
      pause: 0,
    });
    const done = await until(app, taskId, ended);
    const before = await app.notes();
    // As if its instance had died before it recorded the end: run it again.
    const store = app.app.get<TaskStore>(TASK_STORE);
    await store.update(taskId, (now) => ({
      ...now,
      status: 'working',
      result: undefined,
    }));
    await app.app.get(McpTaskRunner).run(taskId, new AbortController().signal);

    expect(await get(app, taskId)).toMatchObject({
      status: 'completed',
      result: done.result,
    });
    expect(await app.notes()).toBe(before);
  });

  it('audits the creation and the outcome, for the same principal', async () => {
    const { taskId } = await call(app, 'notes_write', {
      text: 'audit',
      count: 1,
      pause: 0,
    });
    await until(app, taskId, ended);
    await sleep(50);
    const created = app.audit.find(
      (event) => event.outcome === 'INTERNAL_TASK_001',
    );
    const outcome = app.audit.find((event) => event.taskId === taskId);
    expect(created).toMatchObject({
      principalId: 'alice',
      tool: 'notes_write',
    });
    expect(outcome).toMatchObject({
      principalId: 'alice',
      tool: 'notes_write',
      outcome: 'ok',
    });
  });
});
