import {
  Client as ClientV2,
  ProtocolError,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type JsonRpcResponse,
  JsonRpcResponseError,
  resultFromTaskOutcome,
  type TaskEnabledSession,
  type TaskView,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import {
  type TaskId,
  taskId as asTaskId,
} from '@modelcontextprotocol/ext-tasks/core';
import { startSampleApp, type RunningSample } from '../support/sample-app';
import {
  callerHeaders,
  CLIENT_INFO,
  McpClients,
  type Caller,
} from '../support/mcp-clients';

/**
 * The sample's task operations with the official clients: the tasks client
 * `@modelcontextprotocol/ext-tasks` on an SDK v2 client that speaks
 * 2026-07-28 creates, polls, cancels and reads tasks; SDK v2 without the
 * extension and SDK v1 (2025-11-25) call the same tools. On a real SQLite
 * file, the rows counted.
 */

const ALICE: Caller = { apiKey: 'dev-alice-key', tenant: 'acme' };
const BOB: Caller = { apiKey: 'dev-bob-key', tenant: 'acme' };
const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
/** Big enough that an import is still under way after a few polls. */
const BIG_IMPORT = 10_000;

type Json = Record<string, unknown>;

/**
 * The host's request coordinator the tasks client asks for on a 2026-07-28
 * tasks server (`rawDispatch`): its own SDK v2 transport, which sets the
 * standard headers from each request's `_meta`, and its own request ids.
 */
class RawDispatcher {
  private readonly transport: TransportV2;
  private readonly pending = new Map<
    string,
    (answer: JSONRPCMessage) => void
  >();
  private next = 0;

  constructor(url: URL, caller: Caller) {
    this.transport = new TransportV2(url, {
      requestInit: { headers: callerHeaders(caller) },
    });
    this.transport.onmessage = (message) => {
      const id = (message as { id?: unknown }).id;
      if (typeof id === 'string') {
        this.pending.get(id)?.(message);
        this.pending.delete(id);
      }
    };
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  readonly dispatch = async (
    request: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<JsonRpcResponse> => {
    const id = `raw-${++this.next}`;
    const answered = new Promise<JSONRPCMessage>((resolve) =>
      this.pending.set(id, resolve),
    );
    await this.transport.send(
      { jsonrpc: '2.0', id, ...(request as object) } as JSONRPCMessage,
      { requestSignal: options?.signal },
    );
    const answer = (await answered) as {
      result?: Json;
      error?: { code: number; message: string; data?: never };
    };
    return answer.error
      ? { kind: 'error', error: answer.error }
      : { kind: 'result', result: answer.result as never };
  };

  close(): Promise<void> {
    return this.transport.close();
  }
}

type SdkClient = Parameters<typeof createTaskSessionFromClient>[0];

/** An SDK v2 client on 2026-07-28 as `caller`, and a tasks session over it. */
interface TasksClient {
  readonly client: ClientV2;
  readonly session: TaskEnabledSession;
  close(): Promise<void>;
}

async function tasksClient(
  baseUrl: string,
  caller: Caller,
): Promise<TasksClient> {
  const url = new URL('/mcp', baseUrl);
  const client = new ClientV2(CLIENT_INFO, {
    capabilities: {},
    versionNegotiation: { mode: 'auto' },
  });
  await client.connect(
    new TransportV2(url, { requestInit: { headers: callerHeaders(caller) } }),
  );
  const raw = new RawDispatcher(url, caller);
  await raw.start();
  // One client: this file sees the package's CommonJS types, ext-tasks its
  // ES module ones.
  const session = createTaskSessionFromClient(client as unknown as SdkClient, {
    endpointId: `sample-tasks-${caller.apiKey}`,
    rawDispatch: raw.dispatch,
    v2RequestFraming: {
      protocolVersion: MODERN,
      clientInfo: CLIENT_INFO,
      clientCapabilities: {},
    },
  });
  return {
    client,
    session,
    close: async () => {
      await session.close();
      await raw.close();
      await client.close();
    },
  };
}

const orders = (count: number, name = 'imported') =>
  Array.from({ length: count }, (_, index) => ({
    name: `${name} ${index + 1}`,
    amount: (index % 5) + 1,
  }));

/** The task's snapshots (`tasks/get`) every 20 ms until `until` holds. */
async function pollUntil(
  session: TaskEnabledSession,
  taskId: TaskId,
  until: (task: TaskView) => boolean,
): Promise<TaskView[]> {
  const seen: TaskView[] = [];
  for (let tries = 0; tries < 1500; tries++) {
    const task = await session.task(taskId).snapshot();
    seen.push(task);
    if (until(task)) {
      return seen;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `task ${taskId} never got there: ${JSON.stringify(seen.at(-1))}`,
  );
}

/** The `structuredContent` of a completed task's result, as tasks/get gave it. */
function structuredOf(task: TaskView): unknown {
  const result = task.raw.result as {
    isError?: boolean;
    structuredContent?: unknown;
  };
  expect(result.isError).toBeUndefined();
  return result.structuredContent;
}

/** A result schema (Standard Schema) that takes any answer as it came. */
const ANY_RESULT = {
  '~standard': {
    version: 1 as const,
    vendor: 'sample-tasks-e2e',
    validate: (value: unknown) => ({ value }),
  },
};

/** The error a promise is rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the sample runs orders_import and orders_report as tasks', () => {
  let sample: RunningSample;
  let clients: McpClients;
  const open: TasksClient[] = [];

  const connect = async (caller: Caller) => {
    const connected = await tasksClient(sample.baseUrl, caller);
    open.push(connected);
    return connected;
  };
  const countOrders = async () =>
    Number(
      (
        (await sample.dataSource.query(
          "SELECT COUNT(*) AS n FROM orders WHERE tenantId = 'acme'",
        )) as { n: number }[]
      )[0].n,
    );

  beforeAll(async () => {
    sample = await startSampleApp('sqlite');
    clients = new McpClients(sample.baseUrl);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await clients.closeAll();
    await sample.clearOrders();
  });
  afterAll(async () => {
    await sample?.close();
  });

  it('declares the tasks extension and each task tool, to a 2026-07-28 client', async () => {
    const { client } = await connect(ALICE);
    expect(client.getServerCapabilities()?.extensions).toEqual({
      [TASKS]: {},
    });
    // The SDK's listTools() keeps no `execution`: the list as sent.
    const { tools } = (await client.request(
      { method: 'tools/list', params: {} },
      ANY_RESULT,
    )) as { tools: { name: string; execution?: { taskSupport: string } }[] };
    const support = Object.fromEntries(
      tools
        .filter((tool) => tool.execution)
        .map((tool) => [tool.name, tool.execution?.taskSupport]),
    );
    expect(support).toEqual({
      orders_import: 'optional',
      orders_report: 'required',
    });
  });

  it('imports 10,000 orders as a task: created at once, progress as it goes, then the result', async () => {
    const { session } = await connect(ALICE);
    const execution = await session.callTool('orders_import', {
      orders: orders(BIG_IMPORT),
    });
    expect(execution.kind).toBe('task');
    if (execution.kind !== 'task') {
      return;
    }
    const { taskId } = execution.handle;
    const seen = await pollUntil(
      session,
      taskId,
      (task) => task.status !== 'working',
    );
    const messages = [
      ...new Set(seen.map((task) => task.statusMessage).filter(Boolean)),
    ];
    // The import's own progress reports, several of them, as they came.
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) {
      expect(message).toMatch(/^(\d+)\/10000: \1 of 10000 orders created$/);
    }
    const done = messages.map((message) => Number(message!.split('/')[0]));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ taskId, status: 'completed' });

    // The result, inline in tasks/get's answer.
    const { created, ids } = structuredOf(seen.at(-1)!) as {
      created: number;
      ids: number[];
    };
    expect(created).toBe(BIG_IMPORT);
    expect(new Set(ids).size).toBe(BIG_IMPORT);
    expect(await countOrders()).toBe(BIG_IMPORT);

    // The tasks client reads the same result: a 2026-07-28 tool result.
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('completed');
    expect(resultFromTaskOutcome(outcome)).toMatchObject({
      resultType: 'complete',
      structuredContent: { created: BIG_IMPORT },
    });
  });

  it('cancels an import mid-way: cancelled, and no order written', async () => {
    const { session } = await connect(ALICE);
    const execution = await session.callTool('orders_import', {
      orders: orders(BIG_IMPORT),
    });
    if (execution.kind !== 'task') {
      throw new Error('orders_import did not become a task');
    }
    const { taskId } = execution.handle;
    // Under way: some orders saved, in the import's open transaction
    // (SQLite's one connection shows them).
    await pollUntil(session, taskId, (task) =>
      /^[1-9]\d*\/10000/.test(task.statusMessage ?? ''),
    );
    expect(await countOrders()).toBeGreaterThan(0);

    await session.task(taskId).cancel();

    expect(await session.task(taskId).snapshot()).toMatchObject({
      taskId,
      status: 'cancelled',
    });
    // Rolled back: none left, and none later.
    for (let tries = 0; tries < 250 && (await countOrders()) > 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await countOrders()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await countOrders()).toBe(0);
    expect((await session.task(taskId).snapshot()).status).toBe('cancelled');
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe('cancelled');
  });

  it("answers another principal's tasks/get and tasks/cancel exactly as for an unknown task", async () => {
    const alice = await connect(ALICE);
    const bob = await connect(BOB);
    const execution = await alice.session.callTool('orders_import', {
      orders: orders(BIG_IMPORT),
    });
    if (execution.kind !== 'task') {
      throw new Error('orders_import did not become a task');
    }
    const { taskId } = execution.handle;
    const unknown = asTaskId('x'.repeat(taskId.length));
    const refusal = async (call: Promise<unknown>, id: string) => {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(JsonRpcResponseError);
      const { response } = error as JsonRpcResponseError;
      // The id named is the only difference.
      return JSON.parse(JSON.stringify(response).replaceAll(id, '<id>'));
    };

    const getOther = await refusal(bob.session.task(taskId).snapshot(), taskId);
    const getUnknown = await refusal(
      bob.session.task(unknown).snapshot(),
      unknown,
    );
    expect(getOther).toEqual(getUnknown);
    expect(getOther).toMatchObject({
      code: -32602,
      message: 'Unknown task: "<id>".',
    });
    const cancelOther = await refusal(
      bob.session.task(taskId).cancel(),
      taskId,
    );
    expect(cancelOther).toEqual(
      await refusal(bob.session.task(unknown).cancel(), unknown),
    );
    expect(cancelOther).toEqual(getOther);

    // Bob's cancel changed nothing: alice's import goes on to the end.
    const seen = await pollUntil(
      alice.session,
      taskId,
      (task) => task.status !== 'working',
    );
    expect(seen.at(-1)?.status).toBe('completed');
    expect(await countOrders()).toBe(BIG_IMPORT);
  });

  it('runs orders_report as a task: rows per name, after the orders it read', async () => {
    const { session } = await connect(ALICE);
    const imported = await session.callTool('orders_import', {
      orders: [
        { name: 'bolt', amount: 2 },
        { name: 'nut', amount: 5 },
        { name: 'bolt', amount: 3 },
      ],
    });
    if (imported.kind !== 'task') {
      throw new Error('orders_import did not become a task');
    }
    await pollUntil(
      session,
      imported.handle.taskId,
      (task) => task.status === 'completed',
    );
    const bob = await connect(BOB);
    const execution = await bob.session.callTool('orders_report', {
      by: 'name',
    });
    if (execution.kind !== 'task') {
      throw new Error('orders_report did not become a task');
    }
    const seen = await pollUntil(
      bob.session,
      execution.handle.taskId,
      (task) => task.status !== 'working',
    );
    expect(seen.at(-1)?.status).toBe('completed');
    expect(structuredOf(seen.at(-1)!)).toEqual({
      by: 'name',
      orders: 3,
      amount: 10,
      rows: [
        { key: 'bolt', orders: 2, amount: 5 },
        { key: 'nut', orders: 1, amount: 5 },
      ],
    });
  });

  it('refuses the required orders_report with -32021 to a 2026-07-28 client without the extension, and runs the optional import as a plain call', async () => {
    const modern = new ClientV2(CLIENT_INFO, {
      versionNegotiation: { mode: 'auto' },
    });
    await modern.connect(
      new TransportV2(new URL('/mcp', sample.baseUrl), {
        requestInit: { headers: callerHeaders(ALICE) },
      }),
    );
    try {
      const error = await rejection(
        modern.callTool({ name: 'orders_report', arguments: {} }),
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
      });
      const imported = await modern.callTool({
        name: 'orders_import',
        arguments: { orders: orders(3) },
      });
      expect(imported.structuredContent).toMatchObject({ created: 3 });
      expect(await countOrders()).toBe(3);
    } finally {
      await modern.close();
    }
  });

  it('gives a 2025-11-25 client (SDK v1) plain results of both tools', async () => {
    const alice = await clients.v1(ALICE);
    const imported = await alice.callTool({
      name: 'orders_import',
      arguments: { orders: orders(30) },
    });
    expect(imported.isError).toBeUndefined();
    expect(imported.structuredContent).toMatchObject({ created: 30 });
    expect(await countOrders()).toBe(30);
    const report = await alice.callTool({
      name: 'orders_report',
      arguments: {},
    });
    expect(report.structuredContent).toMatchObject({
      by: 'day',
      orders: 30,
      amount: 90,
    });
  });
});
