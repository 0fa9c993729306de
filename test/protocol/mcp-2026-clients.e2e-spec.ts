import {
  CLIENT_INFO,
  callerHeaders,
  ClientV2,
  McpClients,
  type Caller,
} from '../support/mcp-clients';
import { startSampleApp } from '../support/sample-app';
import type { RunningApp } from '../support/start-app';
import { startWireRecorder, type WireRecorder } from '../support/wire-recorder';

/**
 * The newest client libraries open every connection with `server/discover`
 * at protocol version 2026-07-28. Each one below connects to the sample app
 * through a recording proxy, so the test sees on the wire that no
 * `initialize` is sent, then lists the tools and calls `orders_create` as
 * alice (allowed) and bob (denied).
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const NEEDS_NODE_22 = NODE_MAJOR < 22;
if (NEEDS_NODE_22) {
  console.warn(
    `mcp-2026-clients: Node ${process.version} is too old for @ai-sdk/mcp, @mastra/mcp and @openai/agents (Node 22+); their tests are SKIPPED here and run on Node 22 and 24.`,
  );
}

const ALICE: Caller = { apiKey: 'dev-alice-key' };
const BOB: Caller = { apiKey: 'dev-bob-key' };
const MODERN = '2026-07-28';

/** What a test needs of one call's result, whatever the client's shape. */
interface CallOutcome {
  readonly isError: boolean;
  readonly text: string;
}

interface ToolContent {
  readonly type: string;
  readonly text?: string;
}

function expectDenied(outcome: CallOutcome): void {
  expect(outcome.isError).toBe(true);
  expect(outcome.text).toMatch(/^SECURITY_DENIED_004: /);
}

function outcomeOf(result: {
  isError?: boolean;
  content?: readonly ToolContent[];
}): CallOutcome {
  return {
    isError: result.isError === true,
    text: result.content?.find((block) => block.type === 'text')?.text ?? '',
  };
}

let counter = 0;
const orderName = (client: string) => `${client} order ${++counter}`;

describe('MCP clients that speak 2026-07-28, sample app', () => {
  let running: RunningApp;
  let wire: WireRecorder;

  beforeAll(async () => {
    running = await startSampleApp();
  });
  afterAll(() => running?.close());
  beforeEach(async () => {
    wire = await startWireRecorder(running.baseUrl);
  });
  afterEach(() => wire?.close());

  const url = () => `${wire.baseUrl}/mcp`;

  /** What every test checks on the wire once its client has done its work. */
  function expectStatelessOnTheWire(): void {
    const methods = wire.rpcMethods();
    expect(methods).not.toContain('initialize');
    expect(methods).not.toContain('notifications/initialized');
    expect(methods).toEqual(
      expect.arrayContaining(['tools/list', 'tools/call']),
    );
    const posts = wire.requests.filter((each) => each.httpMethod === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) {
      expect(post.headers['mcp-protocol-version']).toBe(MODERN);
      expect(post.metaVersion).toBe(MODERN);
      expect(post.headers['mcp-method']).toBe(post.rpcMethods[0]);
      expect(post.status).toBe(200);
    }
  }

  /**
   * Connects alice and bob, runs `body`, closes both; then the first request
   * on the wire must be the discovery probe, and none an `initialize`.
   */
  async function asAliceAndBob<T>(
    connect: (caller: Caller) => Promise<T>,
    close: (client: T) => Promise<void>,
    body: (alice: T, bob: T) => Promise<void>,
  ): Promise<void> {
    const alice = await connect(ALICE);
    const bob = await connect(BOB);
    try {
      await body(alice, bob);
    } finally {
      await Promise.all([close(alice), close(bob)]);
    }
    expect(wire.rpcMethods()[0]).toBe('server/discover');
    expectStatelessOnTheWire();
  }

  describe.skipIf(NEEDS_NODE_22)('@ai-sdk/mcp 2 with ai 7', () => {
    async function connect(caller: Caller) {
      const { createMCPClient } = await import('@ai-sdk/mcp');
      return createMCPClient({
        transport: { type: 'http', url: url(), headers: callerHeaders(caller) },
        clientName: CLIENT_INFO.name,
      });
    }

    /** Runs `generateText` with a model that asks for one tool call, and returns that call's result. */
    async function callThroughAi(
      tools: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['tools']>>,
      input: Record<string, unknown>,
    ): Promise<CallOutcome> {
      const { generateText } = await import('ai');
      const { MockLanguageModelV4 } = await import('ai/test');
      const model = new MockLanguageModelV4({
        doGenerate: {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'orders_create',
              input: JSON.stringify(input),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: {
            inputTokens: {
              total: 1,
              noCache: 1,
              cacheRead: undefined,
              cacheWrite: undefined,
            },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        },
      });
      const result = await generateText({ model, tools, prompt: 'Order tea' });
      expect(result.toolResults).toHaveLength(1);
      return outcomeOf(
        result.toolResults[0].output as Parameters<typeof outcomeOf>[0],
      );
    }

    it('connects without initialize, lists the tools, alice creates an order, bob is denied', async () => {
      await asAliceAndBob(
        connect,
        (client) => client.close(),
        async (alice, bob) => {
          const listed = await alice.listTools();
          expect(listed.tools.map((tool) => tool.name)).toContain(
            'orders_create',
          );
          expect(alice.instructions).toBe('Order desk');

          const name = orderName('ai-sdk');
          const created = await callThroughAi(await alice.tools(), {
            name,
            amount: 3,
          });
          expect(created.isError).toBe(false);
          expect(JSON.parse(created.text)).toMatchObject({ name, amount: 3 });

          expectDenied(
            await callThroughAi(await bob.tools(), {
              name: orderName('ai-sdk'),
              amount: 1,
            }),
          );
        },
      );
    });
  });

  describe.skipIf(NEEDS_NODE_22)('@openai/agents 0.20', () => {
    async function connect(caller: Caller) {
      const { MCPServerStreamableHttp } = await import('@openai/agents');
      const server = new MCPServerStreamableHttp({
        url: url(),
        name: 'order-desk',
        requestInit: { headers: callerHeaders(caller) },
      });
      await server.connect();
      return server;
    }

    it('connects without initialize, lists the tools, alice creates an order, bob is denied', async () => {
      await asAliceAndBob(
        connect,
        (server) => server.close(),
        async (alice, bob) => {
          const tools = await alice.listTools();
          expect(tools.map((tool) => tool.name)).toContain('orders_create');

          const name = orderName('openai');
          const created = outcomeOf(
            await alice.callToolResult('orders_create', { name, amount: 4 }),
          );
          expect(created.isError).toBe(false);
          expect(JSON.parse(created.text)).toMatchObject({ name, amount: 4 });

          expectDenied(
            outcomeOf(
              await bob.callToolResult('orders_create', {
                name: orderName('openai'),
                amount: 1,
              }),
            ),
          );
        },
      );
    });
  });

  describe.skipIf(NEEDS_NODE_22)('@mastra/mcp 2', () => {
    async function connect(caller: Caller) {
      const { MCPClient } = await import('@mastra/mcp');
      return new MCPClient({
        id: `order-desk-${++counter}`,
        servers: {
          desk: {
            url: new URL(url()),
            requestInit: { headers: callerHeaders(caller) },
          },
        },
      });
    }

    type MastraTools = Awaited<
      ReturnType<Awaited<ReturnType<typeof connect>>['listTools']>
    >;

    /** Runs a tool as an agent would; Mastra's runtime completes the context (request context, tracing). */
    function run(tools: MastraTools, input: Record<string, unknown>) {
      const tool = tools.desk_orders_create;
      type Context = Parameters<NonNullable<typeof tool.execute>>[1];
      return tool.execute?.(input, {} as Context);
    }

    it('connects without initialize, lists the tools, alice creates an order, bob is denied', async () => {
      await asAliceAndBob(
        connect,
        (client) => client.disconnect(),
        async (alice, bob) => {
          const tools = await alice.listTools();
          expect(Object.keys(tools)).toContain('desk_orders_create');

          const name = orderName('mastra');
          const created: unknown = await run(tools, { name, amount: 5 });
          expect(created).toMatchObject({ name, amount: 5 });

          // Mastra turns an isError result into a thrown error with its text.
          await expect(
            run(await bob.listTools(), {
              name: orderName('mastra'),
              amount: 1,
            }),
          ).rejects.toThrow(/^SECURITY_DENIED_004: /);
        },
      );
    });
  });

  describe('@modelcontextprotocol/client 2.4 with versionNegotiation auto', () => {
    async function connect(caller: Caller) {
      const { StreamableHTTPClientTransport } =
        await import('@modelcontextprotocol/client');
      const client = new ClientV2(CLIENT_INFO, {
        versionNegotiation: { mode: 'auto' },
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url()), {
          requestInit: { headers: callerHeaders(caller) },
        }),
      );
      return client;
    }

    it('lands on the modern era without initialize; alice creates, bob is denied', async () => {
      await asAliceAndBob(
        connect,
        (client) => client.close(),
        async (alice, bob) => {
          expect(alice.getProtocolEra()).toBe('modern');
          const { tools } = await alice.listTools();
          expect(tools.map((tool) => tool.name)).toContain('orders_create');

          const name = orderName('sdk-v2');
          const created = await alice.callTool({
            name: 'orders_create',
            arguments: { name, amount: 6 },
          });
          expect(created.isError).not.toBe(true);
          expect(created.structuredContent).toMatchObject({ name, amount: 6 });

          expectDenied(
            outcomeOf(
              (await bob.callTool({
                name: 'orders_create',
                arguments: { name: orderName('sdk-v2'), amount: 1 },
              })) as Parameters<typeof outcomeOf>[0],
            ),
          );
        },
      );
    });
  });

  describe.each(['v1', 'v2'] as const)(
    'the SDK %s client with its defaults',
    (version) => {
      it('still negotiates 2025-11-25 with initialize, and sends no _meta version', async () => {
        const clients = new McpClients(wire.baseUrl);
        try {
          const client = await clients[version](ALICE);
          const { tools } = await client.listTools();
          expect(tools.map((tool) => tool.name)).toContain('orders_list');
          await client.callTool({ name: 'orders_list', arguments: {} });
        } finally {
          await clients.closeAll();
        }

        const methods = wire.rpcMethods();
        expect(methods[0]).toBe('initialize');
        expect(methods).not.toContain('server/discover');
        const [opening, ...rest] = wire.requests.filter(
          (each) => each.httpMethod === 'POST',
        );
        expect(opening.status).toBe(200);
        expect(rest.length).toBeGreaterThanOrEqual(3);
        for (const post of rest) {
          expect(post.headers['mcp-protocol-version']).toBe('2025-11-25');
          expect(post.metaVersion).toBeUndefined();
        }
      });
    },
  );
});
