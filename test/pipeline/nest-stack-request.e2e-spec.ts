import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ThrottlerGuard } from '@nestjs/throttler';
import { McpTestClient } from '@nestops/mcp/testing';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  AdminOperationGuard,
  AdminPathGuard,
  cacheHeaders,
  ClsAppModule,
  ClsUnitOfWorkAppModule,
  guardedApp,
  IpAllowListGuard,
  loggedStatuses,
  ReadOnlyKeyGuard,
  RecordingGuard,
  ResponseAppModule,
  seenRequests,
  ThrottlerBehindProxyGuard,
  throttledApp,
} from '../fixtures/nest-stack-request-fixtures';
import type { ToolResult } from '../support/json-rpc-shapes';
import { CLIENT_INFO } from '../support/mcp-clients';
import { ACCEPT_BOTH, JSON_TYPE } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/** `<CODE>: <text>`, whatever the code. */
const FAILURE_TEXT = /^[A-Z]+_[A-Z]+_\d{3}: /;

const agents = new Map<string, Agent>();

/** A connection pool whose sockets leave from `localAddress` (a loopback address on Linux). */
function agentFrom(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

afterAll(async () => {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
});

let nextId = 1;

/** POSTs `message` to `url` from `localAddress`; the JSON answer. */
async function postFrom(
  localAddress: string,
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const response = await undiciFetch(url, {
    method: 'POST',
    headers: { ...JSON_TYPE, ...ACCEPT_BOTH, ...headers },
    body: JSON.stringify(message),
    dispatcher: agentFrom(localAddress),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** One `tools/call` of `name` from `localAddress`, over raw HTTP. */
async function callFrom(
  localAddress: string,
  baseUrl: string,
  name: string,
  headers: Record<string, string> = {},
  args: Record<string, unknown> = {},
  path = '/mcp',
): Promise<ToolResult> {
  const body = (await postFrom(
    localAddress,
    `${baseUrl}${path}`,
    {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name, arguments: args },
    },
    headers,
  )) as { result: ToolResult };
  return body.result;
}

/** An MCP SDK v1 client whose connections leave from `localAddress`. */
async function clientFrom(
  localAddress: string,
  baseUrl: string,
): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  const dispatcher = agentFrom(localAddress);
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
      fetch: (url, init) =>
        undiciFetch(url, { ...(init as object), dispatcher }) as never,
    }),
  );
  return client;
}

/** `call` made `times` times in a row: whether each was refused. */
async function refusals(
  call: () => Promise<{ isError?: unknown }>,
  times = 4,
): Promise<boolean[]> {
  const refused: boolean[] = [];
  for (let i = 0; i < times; i++) {
    refused.push(Boolean((await call()).isError));
  }
  return refused;
}

/** The limit of 3 a minute holds for `caller` (its 4th call refused), and `other` still gets through. */
async function expectOwnLimits(
  caller: () => Promise<{ isError?: unknown }>,
  other: () => Promise<{ isError?: unknown }>,
): Promise<void> {
  expect(await refusals(caller)).toEqual([false, false, false, true]);
  expect((await other()).isError).toBeFalsy();
}

function textOf(result: object): string {
  return (result as { content: { text: string }[] }).content[0].text;
}

describe('@nestjs/throttler: ThrottlerGuard as APP_GUARD, over MCP', () => {
  const running = useApp(() => startApp(throttledApp(ThrottlerGuard)));
  const clients: Client[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.close())));

  it('gives each caller address its own limit: the 4th call of one is refused, the other still succeeds', async () => {
    const { baseUrl } = running();
    const second = await clientFrom('127.0.0.2', baseUrl);
    const first = await clientFrom('127.0.0.1', baseUrl);
    clients.push(first, second);
    const call = (client: Client) =>
      client.callTool({ name: 'reports_list', arguments: {} });

    for (let i = 0; i < 3; i++) {
      expect((await call(second)).isError).toBeFalsy();
    }
    const refused = await call(second);
    const other = await call(first);

    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(FAILURE_TEXT);
    expect(other.isError).toBeFalsy();
    expect(other.structuredContent).toEqual({ listed: true });
    // The other caller has the rest of its own limit.
    expect((await call(first)).isError).toBeFalsy();
    expect((await call(first)).isError).toBeFalsy();
    expect((await call(first)).isError).toBe(true);
  });

  it("honours an operation's @Throttle and @SkipThrottle", async () => {
    const { baseUrl } = running();
    const exported = await callFrom('127.0.0.3', baseUrl, 'reports_export');
    const again = await callFrom('127.0.0.3', baseUrl, 'reports_export');
    const pings: ToolResult[] = [];
    for (let i = 0; i < 5; i++) {
      pings.push(await callFrom('127.0.0.3', baseUrl, 'reports_ping'));
    }

    expect(exported.isError).toBeFalsy();
    // @Throttle({ default: { limit: 1 } }): the second call is refused.
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(FAILURE_TEXT);
    // @SkipThrottle(): never limited.
    expect(pings.map((each) => each.isError ?? false)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('@nestjs/throttler: a tracker per principal (getTracker: req.user)', () => {
  const running = useApp(() => startApp(throttledApp(ThrottlerGuard, true)));

  it("limits each principal on its own, from one address: the app's authentication ran first", async () => {
    const { baseUrl } = running();
    const as = (user: string) =>
      callFrom('127.0.0.5', baseUrl, 'reports_list', { 'x-user': user });

    await expectOwnLimits(
      () => as('alice'),
      () => as('bob'),
    );
  });
});

describe('@nestjs/throttler: the proxy guard (req.ips[0] else req.ip)', () => {
  describe("behind the app's `trust proxy`", () => {
    const running = useApp(() =>
      startApp(throttledApp(ThrottlerBehindProxyGuard), {
        setup: (app) => app.set('trust proxy', 'loopback'),
      }),
    );

    it('limits each forwarded client on its own (X-Forwarded-For)', async () => {
      const { baseUrl } = running();
      const from = (client: string) =>
        callFrom('127.0.0.1', baseUrl, 'reports_list', {
          'x-forwarded-for': client,
        });

      await expectOwnLimits(
        () => from('203.0.113.1'),
        () => from('203.0.113.2'),
      );
    });
  });

  describe('without `trust proxy`', () => {
    const running = useApp(() =>
      startApp(throttledApp(ThrottlerBehindProxyGuard)),
    );

    it('runs (ips is empty) and ignores X-Forwarded-For: a caller cannot pick its bucket', async () => {
      const { baseUrl } = running();
      let client = 0;
      // Each call names another client: all of them one caller's bucket.
      const spoofed = () =>
        callFrom('127.0.0.4', baseUrl, 'reports_list', {
          'x-forwarded-for': `198.51.100.${++client}`,
        });

      expect(await refusals(spoofed)).toEqual([false, false, false, true]);
    });
  });
});

describe("what the app's guards see of a call's request", () => {
  beforeEach(() => {
    seenRequests.length = 0;
  });

  describe('over HTTP', () => {
    const running = useApp(() => startApp(guardedApp([RecordingGuard])));

    it('the MCP endpoint (never the tool), the POST, the caller: the tool and operation stay on the invocation context', async () => {
      const result = await callFrom(
        '127.0.0.1',
        running().baseUrl,
        'admin_purge',
        // Not trusted: the app has no `trust proxy`.
        { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
      );

      expect(result.isError).toBeFalsy();
      expect(seenRequests).toEqual([
        {
          tool: 'admin_purge',
          operation: 'admin.purge',
          method: 'POST',
          url: '/mcp',
          originalUrl: '/mcp',
          path: '/mcp',
          ip: '127.0.0.1',
          ips: [],
          hostname: '127.0.0.1',
          protocol: 'http',
        },
      ]);
    });
  });

  describe("behind the app's `trust proxy`, on a path of its own with a query", () => {
    const running = useApp(() =>
      startApp(guardedApp([RecordingGuard], '/api/mcp'), {
        setup: (app) => app.set('trust proxy', 'loopback'),
      }),
    );

    it("the forwarded client, host and protocol, as Express's getters give them", async () => {
      await callFrom(
        '127.0.0.1',
        running().baseUrl,
        'admin_purge',
        {
          'x-forwarded-for': '203.0.113.9',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'api.example.com',
        },
        {},
        '/api/mcp?tenant=a',
      );

      expect(seenRequests).toEqual([
        expect.objectContaining({
          url: '/api/mcp?tenant=a',
          originalUrl: '/api/mcp?tenant=a',
          path: '/api/mcp',
          ip: '203.0.113.9',
          ips: ['203.0.113.9'],
          hostname: 'api.example.com',
          protocol: 'https',
        }),
      ]);
    });
  });

  describe('without HTTP (the in-process client, as on stdio)', () => {
    it('no caller address and no endpoint: ips is empty, the others undefined', async () => {
      const app = await startApp(guardedApp([RecordingGuard]));
      try {
        const result = await McpTestClient.create(app.app).callTool(
          'admin_purge',
        );
        expect(result.isError).toBeFalsy();
      } finally {
        await app.close();
      }

      expect(seenRequests).toEqual([
        {
          tool: 'admin_purge',
          operation: 'admin.purge',
          method: undefined,
          url: undefined,
          originalUrl: undefined,
          path: undefined,
          ip: undefined,
          ips: [],
          hostname: undefined,
          protocol: undefined,
        },
      ]);
    });
  });

  describe('a route-path rule and a rule on the operation', () => {
    const byPath = useApp(() => startApp(guardedApp([AdminPathGuard])));
    const byOperation = useApp(() =>
      startApp(guardedApp([AdminOperationGuard])),
    );

    it('a path rule does not cover tools: the guard sees /mcp, so a non-admin runs admin_purge', async () => {
      const result = await callFrom(
        '127.0.0.1',
        byPath().baseUrl,
        'admin_purge',
      );

      expect(result.isError).toBeFalsy();
    });

    it("a rule on the invocation context's operation id does", async () => {
      const denied = await callFrom(
        '127.0.0.1',
        byOperation().baseUrl,
        'admin_purge',
      );
      const admitted = await callFrom(
        '127.0.0.1',
        byOperation().baseUrl,
        'admin_purge',
        { 'x-role': 'admin' },
      );

      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toMatch(/^SECURITY_DENIED_/);
      expect(admitted.isError).toBeFalsy();
    });
  });

  describe('a method rule ("a read-only key may only GET")', () => {
    const running = useApp(() => startApp(guardedApp([ReadOnlyKeyGuard])));

    it("sees every call as the endpoint's POST; the operation's semantics say what reads only", async () => {
      const readOnly = { 'x-key-scope': 'read-only' };
      const listed = await callFrom(
        '127.0.0.1',
        running().baseUrl,
        'admin_list',
        readOnly,
      );
      const purged = await callFrom(
        '127.0.0.1',
        running().baseUrl,
        'admin_purge',
        readOnly,
      );

      expect(listed.isError).toBeFalsy();
      expect(purged.isError).toBe(true);
      expect(textOf(purged)).toMatch(/^SECURITY_DENIED_/);
    });
  });

  describe('an IP allow-list guard (127.0.0.1)', () => {
    const running = useApp(() => startApp(guardedApp([IpAllowListGuard])));

    it('allows a call from 127.0.0.1 and denies one from 127.0.0.2', async () => {
      const allowed = await callFrom(
        '127.0.0.1',
        running().baseUrl,
        'admin_purge',
      );
      const denied = await callFrom(
        '127.0.0.2',
        running().baseUrl,
        'admin_purge',
      );

      expect(allowed.isError).toBeFalsy();
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toMatch(/^SECURITY_DENIED_/);
    });
  });
});

describe("what interceptors see of a call's response", () => {
  const running = useApp(() => startApp(ResponseAppModule));

  beforeEach(() => {
    loggedStatuses.length = 0;
    cacheHeaders.length = 0;
  });

  it('CacheInterceptor with @CacheKey caches the result, as on REST (X-Cache MISS, then HIT)', async () => {
    const { baseUrl } = running();
    const first = await callFrom('127.0.0.1', baseUrl, 'counted_summary');
    const second = await callFrom('127.0.0.1', baseUrl, 'counted_summary');

    expect(first.structuredContent).toEqual({ count: 1 });
    expect(second.structuredContent).toEqual({ count: 1 });
    expect(cacheHeaders).toEqual(['MISS', 'HIT']);
  });

  it('CacheInterceptor without @CacheKey caches nothing: a call is a POST to the endpoint, not a GET', async () => {
    const { baseUrl } = running();
    const first = await callFrom('127.0.0.1', baseUrl, 'counted_fresh');
    const second = await callFrom('127.0.0.1', baseUrl, 'counted_fresh');

    expect(first.structuredContent).toEqual({ count: 1 });
    expect(second.structuredContent).toEqual({ count: 2 });
  });

  it("a logging interceptor reads the call's outcome in statusCode after the handler", async () => {
    const { baseUrl } = running();
    for (const tool of [
      'counted_fresh',
      'counted_forbidden',
      'counted_missing',
      'counted_broken',
    ]) {
      await callFrom('127.0.0.1', baseUrl, tool);
    }

    expect(loggedStatuses).toEqual([
      { tool: 'counted_fresh', status: 200 },
      { tool: 'counted_forbidden', status: 403 },
      { tool: 'counted_missing', status: 404 },
      { tool: 'counted_broken', status: 500 },
    ]);
  });
});

interface WhoAmI {
  readonly id: string;
  readonly sameIdAfterAwait: boolean;
  readonly user: string | null;
  readonly guardSawId: string | null;
  readonly n: number | null;
  readonly ip: string | null;
  readonly caller: string | null;
  readonly input: number | null;
}

describe('nestjs-cls with its middleware mounted: each call in its own CLS context', () => {
  const running = useApp(() => startApp(ClsAppModule));

  it('20 concurrent calls each see their own CLS id and CLS_REQ.user, from the guard to the handler', async () => {
    const { baseUrl } = running();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        callFrom(
          '127.0.0.1',
          baseUrl,
          'cls_whoami',
          { 'x-user': `user-${n}` },
          { n },
        ),
      ),
    );
    const seen = results.map(
      (each) => each.structuredContent as unknown as WhoAmI,
    );

    seen.forEach((each, n) => {
      expect(each).toEqual({
        id: expect.any(String),
        sameIdAfterAwait: true,
        user: `user-${n}`,
        guardSawId: each.id,
        n,
        ip: '127.0.0.1',
        caller: `user-${n}`,
        input: n,
      });
    });
    expect(new Set(seen.map((each) => each.id)).size).toBe(20);
  });

  it('the two calls of a 2025-03-26 batch each see their own CLS id and CLS_REQ', async () => {
    const call = (id: number, n: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'cls_whoami', arguments: { n } },
    });
    const answers = (await postFrom(
      '127.0.0.1',
      `${running().baseUrl}/mcp`,
      [call(1, 1), call(2, 2)],
      { 'mcp-protocol-version': '2025-03-26', 'x-user': 'batcher' },
    )) as { id: number; result: ToolResult }[];
    const [first, second] = answers.map(
      (each) => each.result.structuredContent as unknown as WhoAmI,
    );

    // Each call's request, with what the POST says of the caller.
    expect(first).toMatchObject({
      user: 'batcher',
      n: 1,
      input: 1,
      ip: '127.0.0.1',
    });
    expect(second).toMatchObject({
      user: 'batcher',
      n: 2,
      input: 2,
      ip: '127.0.0.1',
    });
    expect(first.guardSawId).toBe(first.id);
    expect(second.guardSawId).toBe(second.id);
    expect(first.id).not.toBe(second.id);
  });
});

describe('nestjs-cls with its middleware mounted, beside the unit of work', () => {
  const running = useApp(() => startApp(ClsUnitOfWorkAppModule));

  it("keeps the call's CLS id and CLS_REQ inside the call's transaction", async () => {
    const results = await Promise.all(
      [1, 2].map((n) =>
        callFrom(
          '127.0.0.1',
          running().baseUrl,
          'cls-notes_create',
          { 'x-user': `writer-${n}` },
          { n },
        ),
      ),
    );
    const [first, second] = results.map(
      (each) => each.structuredContent as Record<string, unknown>,
    );

    expect(first).toEqual({
      id: first.guardSawId,
      user: 'writer-1',
      guardSawId: expect.any(String),
      inTransaction: true,
      input: 1,
    });
    expect(second).toMatchObject({ user: 'writer-2', inTransaction: true });
    expect(second.id).toBe(second.guardSawId);
    expect(first.id).not.toBe(second.id);
  });
});
