import { McpProtocol } from '@nestops/mcp/internal';
import { ResultOperations } from '../fixtures/pipeline-fixtures';
import { appWith } from '../fixtures/startup-fixtures';
import type { HeaderMap, ToolResult } from '../support/json-rpc-shapes';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  MODERN_VERSION,
  modernHeaders,
  modernRequest,
  type RpcMessage,
  SERVER_INFO_KEY,
  VERSION_KEY,
} from '../support/modern-mcp';
import { type McpReply, mcpHttp } from '../support/mcp-http';
import { startSampleApp } from '../support/sample-app';
import { startApp, type RunningApp, useApp } from '../support/start-app';

const ALICE = { authorization: 'ApiKey dev-alice-key' } as const;
const BOB = { authorization: 'ApiKey dev-bob-key' } as const;
const SPOKEN = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
const SERVER_INFO = {
  [SERVER_INFO_KEY]: { name: 'order-desk', version: '0.1.0' },
};

interface ModernList {
  readonly resultType: string;
  readonly tools: readonly { readonly name: string; readonly title?: string }[];
  readonly ttlMs: number;
  readonly cacheScope: string;
  readonly _meta: Record<string, unknown>;
}

type ModernToolResult = ToolResult & {
  readonly resultType: string;
  readonly structuredContent?: unknown;
  readonly _meta: Record<string, unknown>;
};

function resultOf<T>(reply: McpReply, id: string | number): T {
  expect(reply.status).toBe(200);
  expect(reply.header('content-type')).toMatch(/^application\/json/);
  const body = reply.json();
  expect(body.error).toBeUndefined();
  expect(body.id).toBe(id);
  return body.result as T;
}

function expectRefusal(
  reply: McpReply,
  expected: { status: number; code: number; dataCode: string; id: unknown },
): void {
  expect(reply.status).toBe(expected.status);
  expect(reply.header('content-type')).toMatch(/^application\/json/);
  const body = reply.json();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(expected.id);
  expect(body).not.toHaveProperty('result');
  expect(body.error?.code).toBe(expected.code);
  expect(body.error?.data.code).toBe(expected.dataCode);
  expect(typeof body.error?.message).toBe('string');
}

const createOrder = (id: string, name = 'Tea') =>
  modernRequest(id, 'tools/call', {
    name: 'orders_create',
    arguments: { name, amount: 2 },
  });

/** The full headers of `message`, with `change` applied (`undefined` removes one). */
function headersWith(
  message: RpcMessage,
  change: Readonly<Record<string, string | undefined>>,
): HeaderMap {
  const headers: Record<string, string> = modernHeaders(message);
  for (const [name, value] of Object.entries(change)) {
    delete headers[name];
    if (value !== undefined) {
      headers[name] = value;
    }
  }
  return headers;
}

const base64 = (text: string) =>
  `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('MCP 2026-07-28 over HTTP, sample app', () => {
  let running: RunningApp;
  let baseUrl: string;

  beforeAll(async () => {
    running = await startSampleApp();
    baseUrl = running.baseUrl;
  });
  afterAll(() => running?.close());

  describe('server/discover', () => {
    it('answers the versions, capabilities, instructions, server info and cache hints', async () => {
      const message = modernRequest('discover-1', 'server/discover');
      const result = resultOf(
        await mcpHttp(baseUrl).post(message, {}, { modern: true }),
        'discover-1',
      );

      expect(result).toEqual({
        resultType: 'complete',
        supportedVersions: SPOKEN,
        capabilities: {
          tools: { listChanged: false },
          logging: {},
          resources: { listChanged: false },
          prompts: { listChanged: false },
          completions: {},
          // orders.import runs as a task.
          extensions: { 'io.modelcontextprotocol/tasks': {} },
        },
        instructions: 'Order desk',
        _meta: SERVER_INFO,
        ttlMs: 300_000,
        cacheScope: 'public',
      });
    });

    it('is the same for every caller and language: public', async () => {
      const message = modernRequest(2, 'server/discover');
      const answers = await Promise.all(
        [{}, { ...ALICE, 'accept-language': 'zh-CN' }].map(async (headers) =>
          resultOf(
            await mcpHttp(baseUrl).post(message, headers, { modern: true }),
            2,
          ),
        ),
      );
      expect(answers[1]).toEqual(answers[0]);
    });

    it('without _meta is not a 2026 request: unknown to 2025, as before', async () => {
      const reply = await mcpHttp(baseUrl).post(
        { jsonrpc: '2.0', id: 3, method: 'server/discover' },
        {},
      );
      expectRefusal(reply, {
        status: 200,
        code: -32601,
        dataCode: 'PROTOCOLS_NOTFOUND_001',
        id: 3,
      });
    });
  });

  describe('tools/list', () => {
    it('lists every tool by name, with resultType, server info and cache hints', async () => {
      const list = resultOf<ModernList>(
        await mcpHttp(baseUrl).post(
          modernRequest('list', 'tools/list'),
          {},
          { modern: true },
        ),
        'list',
      );
      const legacy = resultOf<{ tools: { name: string }[] }>(
        await mcpHttp(baseUrl).post(
          { jsonrpc: '2.0', id: 'old', method: 'tools/list' },
          { 'mcp-protocol-version': '2025-11-25' },
        ),
        'old',
      );

      expect(list.resultType).toBe('complete');
      expect(list._meta).toEqual(SERVER_INFO);
      expect(list.ttlMs).toBe(300_000);
      const names = list.tools.map((tool) => tool.name);
      expect(names).toEqual([...names].sort());
      expect([...names].sort()).toEqual(
        legacy.tools.map((tool) => tool.name).sort(),
      );
      expect(legacy).not.toHaveProperty('resultType');
      expect(legacy).not.toHaveProperty('ttlMs');
      expect(legacy).not.toHaveProperty('cacheScope');
    });

    it('is private: the titles follow the caller language', async () => {
      const message = modernRequest('l', 'tools/list');
      const [english, chinese] = await Promise.all(
        ['en-US', 'zh-CN'].map(async (language) =>
          resultOf<ModernList>(
            await mcpHttp(baseUrl).post(
              message,
              { 'accept-language': language },
              { modern: true },
            ),
            'l',
          ),
        ),
      );

      expect(english.cacheScope).toBe('private');
      expect(chinese.cacheScope).toBe('private');
      const title = (list: ModernList) =>
        list.tools.find((tool) => tool.name === 'orders_create')?.title;
      expect(title(english)).toBe('Create an order');
      expect(title(chinese)).not.toBe(title(english));
      expect(chinese.tools.map((tool) => tool.name)).toEqual(
        english.tools.map((tool) => tool.name),
      );
    });
  });

  describe('tools/call', () => {
    it('alice creates an order: resultType complete, structuredContent', async () => {
      const result = resultOf<ModernToolResult>(
        await mcpHttp(baseUrl).post(createOrder('a'), ALICE, { modern: true }),
        'a',
      );

      expect(result.resultType).toBe('complete');
      expect(result.isError).toBeUndefined();
      expect(result._meta).toEqual(SERVER_INFO);
      expect(result.structuredContent).toMatchObject({
        name: 'Tea',
        amount: 2,
      });
      expect(JSON.parse(result.content[0].text)).toEqual(
        result.structuredContent,
      );
    });

    it('bob may not: an isError result, still resultType complete', async () => {
      const result = resultOf<ModernToolResult>(
        await mcpHttp(baseUrl).post(createOrder('b'), BOB, { modern: true }),
        'b',
      );

      expect(result.resultType).toBe('complete');
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^SECURITY_DENIED_004: /);
    });

    it('invalid arguments: an isError result with resultType complete', async () => {
      const message = modernRequest('v', 'tools/call', {
        name: 'orders_create',
        arguments: { name: '', amount: 0 },
      });
      const result = resultOf<ModernToolResult>(
        await mcpHttp(baseUrl).post(message, ALICE, { modern: true }),
        'v',
      );

      expect(result.resultType).toBe('complete');
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^VALIDATION_INVALID_001: /);
    });

    it('an unknown tool is an answer (200), not a refusal of the POST', async () => {
      const message = modernRequest('u', 'tools/call', { name: 'orders_nope' });
      expectRefusal(
        await mcpHttp(baseUrl).post(message, {}, { modern: true }),
        {
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_NOTFOUND_002',
          id: 'u',
        },
      );
    });
  });

  describe('the 2026 envelope rules', () => {
    const list = modernRequest('r', 'tools/list');
    const call = createOrder('c');
    const without = (key: string) => {
      const meta: Record<string, unknown> = { ...MODERN_META };
      delete meta[key];
      return meta;
    };

    interface Rule {
      readonly name: string;
      readonly message: RpcMessage;
      readonly headers?: Readonly<Record<string, string | undefined>>;
      readonly status: number;
      readonly code: number;
      readonly dataCode: string;
    }

    const INVALID_META = { status: 400, code: -32602 } as const;
    const META_CODE = 'PROTOCOLS_VALIDATION_005';
    const MISMATCH = {
      status: 400,
      code: -32020,
      dataCode: 'PROTOCOLS_VALIDATION_006',
    } as const;
    const NOT_FOUND = {
      status: 404,
      code: -32601,
      dataCode: 'PROTOCOLS_NOTFOUND_001',
    } as const;

    const rules: Rule[] = [
      {
        name: '_meta without protocolVersion, the header naming 2026-07-28',
        message: modernRequest(1, 'tools/list', {}, without(VERSION_KEY)),
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'no _meta at all, the header naming 2026-07-28',
        message: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'initialize without _meta, the header naming 2026-07-28',
        message: {
          jsonrpc: '2.0',
          id: 'i',
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {} },
        },
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'protocolVersion that is not a string',
        message: modernRequest(
          3,
          'tools/list',
          {},
          {
            ...MODERN_META,
            [VERSION_KEY]: 20260728,
          },
        ),
        headers: { 'MCP-Protocol-Version': '20260728' },
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: '_meta without clientCapabilities',
        message: modernRequest(4, 'tools/list', {}, without(CAPABILITIES_KEY)),
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'clientCapabilities that is not an object',
        message: modernRequest(
          5,
          'tools/list',
          {},
          {
            ...MODERN_META,
            [CAPABILITIES_KEY]: [],
          },
        ),
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'a logLevel that is not a log level',
        message: modernRequest(
          6,
          'tools/list',
          {},
          {
            ...MODERN_META,
            'io.modelcontextprotocol/logLevel': 'verbose',
          },
        ),
        ...INVALID_META,
        dataCode: META_CODE,
      },
      {
        name: 'MCP-Protocol-Version header missing',
        message: list,
        headers: { 'MCP-Protocol-Version': undefined },
        ...MISMATCH,
      },
      {
        name: 'MCP-Protocol-Version header naming 2025-11-25',
        message: list,
        headers: { 'MCP-Protocol-Version': '2025-11-25' },
        ...MISMATCH,
      },
      {
        name: 'MCP-Protocol-Version header naming an unknown version',
        message: list,
        headers: { 'MCP-Protocol-Version': '1999-01-01' },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Method header missing',
        message: list,
        headers: { 'Mcp-Method': undefined },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Method header naming another method',
        message: call,
        headers: { 'Mcp-Method': 'tools/list' },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Method header in other letter case (values are exact)',
        message: list,
        headers: { 'Mcp-Method': 'TOOLS/LIST' },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Name header missing on tools/call',
        message: call,
        headers: { 'Mcp-Name': undefined },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Name header naming another tool',
        message: call,
        headers: { 'Mcp-Name': 'orders_list' },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Name header encoding another tool',
        message: call,
        headers: { 'Mcp-Name': base64('orders_list') },
        ...MISMATCH,
      },
      {
        name: 'Mcp-Name header with a malformed =?base64?...?=',
        message: call,
        headers: { 'Mcp-Name': '=?base64?b3JkZXJz*?=' },
        ...MISMATCH,
      },
      {
        name: 'unsupported version 1900-01-01',
        message: modernRequest(
          7,
          'tools/list',
          {},
          {
            ...MODERN_META,
            [VERSION_KEY]: '1900-01-01',
          },
        ),
        headers: { 'MCP-Protocol-Version': '1900-01-01' },
        status: 400,
        code: -32022,
        dataCode: 'PROTOCOLS_VALIDATION_002',
      },
      {
        name: 'MCP-Protocol-Version 2026-07-28 for a body naming an unknown version (the mismatch first)',
        message: modernRequest(
          10,
          'server/discover',
          {},
          {
            ...MODERN_META,
            [VERSION_KEY]: 'v999.0.0',
          },
        ),
        ...MISMATCH,
      },
      {
        name: 'initialize as a 2026 request',
        message: modernRequest('init', 'initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'e2e', version: '1' },
        }),
        ...NOT_FOUND,
      },
      {
        name: 'ping as a 2026 request',
        message: modernRequest('ping', 'ping'),
        ...NOT_FOUND,
      },
      {
        name: 'logging/setLevel as a 2026 request',
        message: modernRequest('log', 'logging/setLevel', { level: 'info' }),
        ...NOT_FOUND,
      },
      {
        name: 'an unknown method as a 2026 request',
        message: modernRequest('res', 'resources/subscribe'),
        ...NOT_FOUND,
      },
    ];

    it.each(rules)('$name: $status / $code, id echoed', async (rule) => {
      const reply = await mcpHttp(baseUrl).post(
        rule.message,
        headersWith(rule.message, rule.headers ?? {}),
      );
      expectRefusal(reply, { ...rule, id: rule.message.id });
    });

    it('an unsupported version lists every spoken version and the one requested', async () => {
      const message = modernRequest(
        8,
        'tools/list',
        {},
        {
          ...MODERN_META,
          [VERSION_KEY]: '1900-01-01',
        },
      );
      const reply = await mcpHttp(baseUrl).post(
        message,
        headersWith(message, { 'MCP-Protocol-Version': '1900-01-01' }),
      );

      expect(reply.json().error?.data).toEqual({
        code: 'PROTOCOLS_VALIDATION_002',
        supported: SPOKEN,
        requested: '1900-01-01',
      });
    });

    it('a 2025 version named per request is -32022 too: 2025 is negotiated by initialize', async () => {
      const message = modernRequest(
        9,
        'tools/list',
        {},
        {
          ...MODERN_META,
          [VERSION_KEY]: '2025-11-25',
        },
      );
      const reply = await mcpHttp(baseUrl).post(
        message,
        headersWith(message, { 'MCP-Protocol-Version': '2025-11-25' }),
      );

      expectRefusal(reply, {
        status: 400,
        code: -32022,
        dataCode: 'PROTOCOLS_VALIDATION_002',
        id: 9,
      });
      expect(reply.json().error?.data.requested).toBe('2025-11-25');
      expect(reply.json().error?.message).toMatch(/initialize/);
    });

    it.each([
      ['an encoded Mcp-Name', { 'Mcp-Name': base64('orders_create') }],
      [
        'spaces around the values',
        {
          'MCP-Protocol-Version': ` ${MODERN_VERSION} `,
          'Mcp-Method': '\ttools/call ',
          'Mcp-Name': ' orders_create',
        },
      ],
      [
        'header names in any letter case',
        {
          'MCP-Protocol-Version': undefined,
          'Mcp-Method': undefined,
          'Mcp-Name': undefined,
          'mcp-PROTOCOL-version': MODERN_VERSION,
          'MCP-METHOD': 'tools/call',
          'mcp-name': 'orders_create',
        },
      ],
    ])('accepts %s', async (_case, change) => {
      const message = createOrder('ok', 'Biscuits');
      const result = resultOf<ModernToolResult>(
        await mcpHttp(baseUrl).post(message, {
          ...ALICE,
          ...headersWith(message, change),
        }),
        'ok',
      );
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ name: 'Biscuits' });
    });

    it('a tools/call without a name needs no Mcp-Name: -32602 in the answer, as in 2025', async () => {
      const message = modernRequest('n', 'tools/call', { arguments: {} });
      expectRefusal(
        await mcpHttp(baseUrl).post(message, {}, { modern: true }),
        {
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 'n',
        },
      );
    });

    it('a 2026 notification gets 202 and no body', async () => {
      const reply = await mcpHttp(baseUrl).post(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 1, _meta: MODERN_META },
        },
        {
          'MCP-Protocol-Version': MODERN_VERSION,
          'Mcp-Method': 'notifications/cancelled',
        },
      );
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    });

    it('a 2026 request cannot ride in a 2025-03-26 batch', async () => {
      const reply = await mcpHttp(baseUrl).post(
        [
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          modernRequest(2, 'tools/list'),
        ],
        { 'MCP-Protocol-Version': '2025-03-26' },
      );
      expectRefusal(reply, {
        status: 400,
        code: -32600,
        dataCode: 'PROTOCOLS_VALIDATION_001',
        id: null,
      });
    });
  });
});

describe('MCP 2026-07-28 without a carrier: the dispatcher alone, as stdio calls it', () => {
  let running: RunningApp;
  let dispatch: (message: unknown) => ReturnType<McpProtocol['dispatch']>;

  beforeAll(async () => {
    running = await startSampleApp();
    const dispatcher = running.app.get(McpProtocol);
    // As a transport writes the answer, read back.
    dispatch = async (message) => {
      const answer = await dispatcher.dispatch(message, {
        headers: {},
        locale: 'zh-CN',
      });
      return answer && (JSON.parse(JSON.stringify(answer)) as typeof answer);
    };
  });
  afterAll(() => running?.close());

  it('serves a 2026 request by its body alone: no header to check', async () => {
    const answer = await dispatch(modernRequest(1, 'tools/list'));
    expect(answer).toMatchObject({
      id: 1,
      result: { resultType: 'complete', cacheScope: 'private' },
    });
  });

  it.each<[string, RpcMessage, number, string]>([
    [
      'no clientCapabilities',
      modernRequest(2, 'tools/list', {}, { [VERSION_KEY]: MODERN_VERSION }),
      -32602,
      'PROTOCOLS_VALIDATION_005',
    ],
    [
      'an unsupported version',
      modernRequest(
        3,
        'server/discover',
        {},
        {
          ...MODERN_META,
          [VERSION_KEY]: '1900-01-01',
        },
      ),
      -32022,
      'PROTOCOLS_VALIDATION_002',
    ],
    [
      'initialize as a 2026 request',
      modernRequest(4, 'initialize'),
      -32601,
      'PROTOCOLS_NOTFOUND_001',
    ],
  ])('refuses %s the same way', async (_case, message, code, dataCode) => {
    const answer = await dispatch(message);
    expect(answer).toMatchObject({
      id: message.id,
      error: { code, data: { code: dataCode } },
    });
  });

  it('keeps a message without _meta in 2025: initialize negotiates 2025-11-25', async () => {
    const answer = await dispatch({
      jsonrpc: '2.0',
      id: 5,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    });
    expect(answer).toMatchObject({
      id: 5,
      result: { protocolVersion: '2025-11-25' },
    });
    expect(answer).not.toHaveProperty('result.resultType');
  });
});

describe('MCP 2026-07-28 over HTTP, one-language app with cacheTtl', () => {
  const running = useApp(() =>
    startApp(
      appWith([ResultOperations], { serverName: 'results', cacheTtl: 60_000 }),
    ),
  );

  const call = async (name: string, legacy: boolean) => {
    const message = modernRequest(name, 'tools/call', { name });
    const reply = legacy
      ? await mcpHttp(running().baseUrl).post(
          { jsonrpc: '2.0', id: name, method: 'tools/call', params: { name } },
          {},
        )
      : await mcpHttp(running().baseUrl).post(message, {}, { modern: true });
    return resultOf<ModernToolResult>(reply, name);
  };

  it('tools/list and server/discover carry the configured ttlMs, and are public', async () => {
    for (const method of ['tools/list', 'server/discover']) {
      const result = resultOf<ModernList>(
        await mcpHttp(running().baseUrl).post(
          modernRequest(method, method),
          {},
          { modern: true },
        ),
        method,
      );
      expect(result.resultType).toBe('complete');
      expect(result.ttlMs).toBe(60_000);
      expect(result.cacheScope).toBe('public');
      expect(result._meta).toEqual({
        [SERVER_INFO_KEY]: { name: 'results', version: '0.1.0' },
      });
    }
  });

  it.each([
    ['results_array', [{ id: 1 }, { id: 2 }]],
    ['results_number', 42],
    ['results_object', { id: 7, name: 'Ada' }],
  ])(
    '%s: structuredContent is any JSON value for 2026 callers',
    async (name, value) => {
      const result = await call(name, false);
      expect(result.resultType).toBe('complete');
      if (typeof value === 'object' && !Array.isArray(value)) {
        expect(result.structuredContent).toMatchObject(value);
      } else {
        expect(result.structuredContent).toEqual(value);
      }
      expect(JSON.parse(result.content[0].text)).toEqual(
        result.structuredContent,
      );
    },
  );

  it.each(['results_array', 'results_number'])(
    '%s: a 2025 caller still gets no structuredContent for a value that is not an object',
    async (name) => {
      const result = await call(name, true);
      expect(result).not.toHaveProperty('structuredContent');
      expect(result).not.toHaveProperty('resultType');
    },
  );
});
