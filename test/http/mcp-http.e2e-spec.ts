import { Module } from '@nestjs/common';
import { McpModule, McpServerLifecycleModule } from '@nestops/mcp';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  HttpAddressDto,
  HttpDeepLifecycleModule,
  HttpDefaultsModule,
  HttpInputsModule,
  HttpLifecycleGate,
  HttpLifecycleModule,
  HttpProfileDto,
  HttpProfilesService,
  HttpScopedRootModule,
  HttpSignalsService,
  HttpSmallBodyModule,
  HttpTimeoutModule,
} from '../fixtures/http-fixtures';
import type { HeaderMap, ToolResult } from '../support/json-rpc-shapes';
import {
  ACCEPT_BOTH,
  JSON_TYPE,
  type McpReply,
  rpcRequest,
  sendExact,
  mcpHttp,
} from '../support/mcp-http';
import { startSampleApp } from '../support/sample-app';
import { readiness } from '../support/shutdown';
import {
  createApp,
  HTTP_ADAPTERS,
  type NestHttpApplication,
  startApp,
  type RunningApp,
  useApp,
} from '../support/start-app';
import { WarningLog } from '../support/warning-log';

interface InitializeResult {
  readonly protocolVersion: string;
  readonly capabilities: { readonly tools: { readonly listChanged: boolean } };
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly instructions?: string;
}

function callTool(
  id: string | number,
  name: string,
  args: unknown,
): Readonly<Record<string, unknown>> {
  return rpcRequest(id, 'tools/call', { name, arguments: args });
}

/** A `ping` request of exactly `bytes` bytes (padding in `params.pad`). */
function paddedPing(bytes: number, id: number): string {
  const build = (pad: string) =>
    JSON.stringify(rpcRequest(id, 'ping', { pad }));
  const overhead = Buffer.byteLength(build(''));
  const text = build('x'.repeat(bytes - overhead));
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

function resultOf<T>(response: McpReply): T {
  const body = response.json();
  expect(body.error).toBeUndefined();
  return body.result as T;
}

function toolResultOf(response: McpReply): ToolResult {
  expect(response.status).toBe(200);
  return resultOf<ToolResult>(response);
}

function expectProtocolError(
  response: McpReply,
  expected: {
    status: number;
    code: number;
    dataCode: string;
    id: string | number | null;
  },
): void {
  expect(response.status).toBe(expected.status);
  expect(response.header('content-type')).toMatch(/^application\/json/);
  const body = response.json();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(expected.id);
  expect(body).not.toHaveProperty('result');
  expect(body.error?.code).toBe(expected.code);
  expect(body.error?.data.code).toBe(expected.dataCode);
  expect(typeof body.error?.message).toBe('string');
}

async function expectAnswers(baseUrl: string): Promise<void> {
  const response = await mcpHttp(baseUrl).post(rpcRequest('alive', 'ping'));
  expect(response.status).toBe(200);
  expect(response.json()).toEqual({ jsonrpc: '2.0', id: 'alive', result: {} });
}

const nestedObjects = (depth: number, leaf: string) =>
  '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe.each(HTTP_ADAPTERS)(
  'MCP Streamable HTTP transport, sample app on %s',
  (on) => {
    let running: RunningApp<NestHttpApplication>;
    let baseUrl: string;

    beforeAll(async () => {
      running = await startSampleApp('sqlite', { on });
      baseUrl = running.baseUrl;
    });
    afterAll(() => running?.close());

    describe('a malformed request: its JSON-RPC error code, catalogue code and HTTP status, id echoed', () => {
      interface ErrorCase {
        readonly name: string;
        readonly body: string;
        readonly headers?: HeaderMap;
        readonly status: number;
        readonly code: number;
        readonly dataCode: string;
        readonly id: string | number | null;
      }
      const text = (message: unknown) => JSON.stringify(message);
      const cases: readonly ErrorCase[] = [
        {
          name: 'body is not JSON (truncated)',
          body: '{"jsonrpc":"2.0","id":1,',
          status: 400,
          code: -32700,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        },
        {
          name: 'body is not JSON (a bare word)',
          body: 'hello',
          status: 400,
          code: -32700,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        },
        {
          name: 'body is not JSON (empty)',
          body: '',
          status: 400,
          code: -32700,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        },
        ...[
          '[]',
          '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
          '1',
          '"x"',
          'null',
        ].map((body): ErrorCase => ({
          name: `body is not an object: ${body}`,
          body,
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        })),
        {
          name: 'jsonrpc is "1.0"',
          body: text({ jsonrpc: '1.0', id: 2, method: 'ping' }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 2,
        },
        {
          name: 'jsonrpc is missing',
          body: text({ id: 'no-version', method: 'ping' }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 'no-version',
        },
        {
          name: 'no method',
          body: text({ jsonrpc: '2.0', id: 3 }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 3,
        },
        {
          name: 'method is not a string',
          body: text({ jsonrpc: '2.0', id: 4, method: 42 }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 4,
        },
        {
          name: 'id is null',
          body: text({ jsonrpc: '2.0', id: null, method: 'ping' }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        },
        {
          name: 'id is an object',
          body: text({ jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: null,
        },
        ...[[1, 2], 'x', 5, null].map((params, index): ErrorCase => ({
          name: `params is not an object: ${JSON.stringify(params)}`,
          body: text({
            jsonrpc: '2.0',
            id: `params-${index}`,
            method: 'tools/list',
            params,
          }),
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: `params-${index}`,
        })),
        {
          name: 'unsupported MCP-Protocol-Version header',
          body: text({ jsonrpc: '2.0', id: 5, method: 'ping' }),
          headers: { 'mcp-protocol-version': '1999-01-01' },
          status: 400,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_002',
          id: 5,
        },
        {
          name: 'unknown method',
          body: text({ jsonrpc: '2.0', id: 6, method: 'tools/explode' }),
          status: 200,
          code: -32601,
          dataCode: 'PROTOCOLS_NOTFOUND_001',
          id: 6,
        },
        {
          name: 'tools/call without name',
          body: text(rpcRequest('no-name', 'tools/call', { arguments: {} })),
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 'no-name',
        },
        {
          name: 'tools/call with a name that is not a string',
          body: text(rpcRequest(7, 'tools/call', { name: 42 })),
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_VALIDATION_001',
          id: 7,
        },
        {
          name: 'unknown tool',
          body: text(callTool(8, 'orders_explode', {})),
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_NOTFOUND_002',
          id: 8,
        },
        ...[[], 'x', 5, true, null].map((args, index): ErrorCase => ({
          name: `arguments is not an object: ${JSON.stringify(args)}`,
          body: text(callTool(`args-${index}`, 'orders_list', args)),
          status: 200,
          code: -32602,
          dataCode: 'PROTOCOLS_VALIDATION_003',
          id: `args-${index}`,
        })),
      ];

      it.each(cases)('$name', async (testCase) => {
        const response = await mcpHttp(baseUrl).post(
          testCase.body,
          testCase.headers,
        );
        expectProtocolError(response, testCase);
      });
    });

    describe('notifications, client responses and other HTTP methods', () => {
      it.each([
        [
          'notifications/initialized',
          { jsonrpc: '2.0', method: 'notifications/initialized' },
        ],
        [
          'a notification with params',
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: 1, reason: 'no longer needed' },
          },
        ],
        ['a client result response', { jsonrpc: '2.0', id: 9, result: {} }],
        [
          'a client error response',
          {
            jsonrpc: '2.0',
            id: 'sampling-1',
            error: { code: -1, message: 'User rejected sampling request' },
          },
        ],
      ])('%s gets 202 and an empty body', async (_name, message) => {
        const response = await mcpHttp(baseUrl).post(message);
        expect(response.status).toBe(202);
        expect(response.text).toBe('');
      });

      it.each(['GET', 'DELETE'])('%s /mcp gets 405', async (method) => {
        const response = await sendExact(baseUrl, {
          method,
          headers: ACCEPT_BOTH,
        });
        expect(response.status).toBe(405);
        expect(response.header('allow')).toBe('POST');
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
        expect(response.json()).toEqual({
          type: 'about:blank',
          title: 'Method Not Allowed',
          status: 405,
          detail: 'Only POST is served at /mcp.',
        });
      });
    });

    describe('version negotiation and basic methods', () => {
      it.each(['2025-11-25', '2025-06-18', '2025-03-26'])(
        'initialize with the supported version %s echoes it',
        async (version) => {
          const response = await mcpHttp(baseUrl).post(
            rpcRequest('init', 'initialize', {
              protocolVersion: version,
              capabilities: {},
              clientInfo: { name: 'e2e', version: '1.0.0' },
            }),
          );
          expect(response.status).toBe(200);
          const body = response.json();
          expect(body.id).toBe('init');
          const result = body.result as InitializeResult;
          expect(result.protocolVersion).toBe(version);
          expect(result.capabilities.tools.listChanged).toBe(false);
          expect(result.serverInfo).toEqual({
            name: 'order-desk',
            version: '0.1.0',
          });
          expect(result.instructions).toBe('Order desk');
        },
      );

      it.each([
        ['an unknown version', '1999-01-01'],
        ['a version that is not a string', 20250618],
      ])(
        'initialize with %s is answered with the newest, 2025-11-25',
        async (_name, version) => {
          const response = await mcpHttp(baseUrl).post(
            rpcRequest(1, 'initialize', {
              protocolVersion: version,
              capabilities: {},
              clientInfo: { name: 'e2e', version: '1.0.0' },
            }),
          );
          expect(response.status).toBe(200);
          const result = resultOf<InitializeResult>(response);
          expect(result.protocolVersion).toBe('2025-11-25');
          expect(result.capabilities.tools.listChanged).toBe(false);
        },
      );

      it.each(['2025-11-25', '2025-06-18', '2025-03-26'])(
        'a request with the supported MCP-Protocol-Version %s works',
        async (version) => {
          const response = await mcpHttp(baseUrl).post(
            rpcRequest(2, 'tools/list'),
            {
              'mcp-protocol-version': version,
            },
          );
          expect(response.status).toBe(200);
          const result = resultOf<{ tools: { name: string }[] }>(response);
          expect(result.tools.map((tool) => tool.name)).toContain(
            'orders_list',
          );
        },
      );

      it('a request without MCP-Protocol-Version works', async () => {
        const response = await mcpHttp(baseUrl).post(
          rpcRequest(3, 'tools/list'),
        );
        expect(response.status).toBe(200);
        const result = resultOf<{ tools: { name: string }[] }>(response);
        expect(result.tools.map((tool) => tool.name)).toContain(
          'orders_create',
        );
      });

      it('ping answers {}', async () => {
        const response = await mcpHttp(baseUrl).post(rpcRequest('p', 'ping'));
        expect(response.status).toBe(200);
        expect(response.header('content-type')).toMatch(/^application\/json/);
        expect(response.json()).toEqual({
          jsonrpc: '2.0',
          id: 'p',
          result: {},
        });
      });
    });

    describe('outer HTTP rules', () => {
      const bad = { authorization: 'ApiKey nope' };

      it.each([
        [
          'a valid JSON-RPC request',
          JSON.stringify(rpcRequest(1, 'tools/list')),
        ],
        ['a body that is not JSON', '{"jsonrpc":'],
        ['a body that is not a JSON-RPC request', '[]'],
      ])(
        'invalid credentials with %s get 401 problem+json with WWW-Authenticate',
        async (_name, body) => {
          const response = await mcpHttp(baseUrl).post(body, bad);
          expect(response.status).toBe(401);
          expect(response.header('content-type')).toMatch(
            /^application\/problem\+json/,
          );
          expect(response.header('www-authenticate')).toMatch(/^ApiKey\b/);
          const problem = JSON.parse(response.text) as { status: number };
          expect(problem.status).toBe(401);
          expect(problem).not.toHaveProperty('jsonrpc');
        },
      );

      it('valid credentials pass the outer check', async () => {
        const response = await mcpHttp(baseUrl).post(
          rpcRequest(1, 'tools/list'),
          {
            authorization: 'ApiKey dev-bob-key',
          },
        );
        expect(response.status).toBe(200);
        const result = resultOf<{ tools: { name: string }[] }>(response);
        expect(result.tools.map((tool) => tool.name)).toContain('orders_list');
      });

      it('no credentials: tools/list works, a call needing a permission is an isError result', async () => {
        const list = await mcpHttp(baseUrl).post(rpcRequest(1, 'tools/list'));
        expect(list.status).toBe(200);
        const tools = resultOf<{ tools: { name: string }[] }>(list).tools;
        expect(tools.map((tool) => tool.name)).toContain('orders_create');

        const call = await mcpHttp(baseUrl).post(
          callTool(2, 'orders_create', { name: 'Tea', amount: 2 }),
        );
        const result = toolResultOf(call);
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toMatch(/^SECURITY_DENIED_003: /);
      });

      it('a present Origin that is not allowed gets 403', async () => {
        const response = await mcpHttp(baseUrl).post(rpcRequest(1, 'ping'), {
          origin: 'http://evil.example',
        });
        expect(response.status).toBe(403);
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
      });

      it('a loopback Origin (http://localhost:5173) is allowed', async () => {
        const response = await mcpHttp(baseUrl).post(rpcRequest(1, 'ping'), {
          origin: 'http://localhost:5173',
        });
        expect(response.status).toBe(200);
        expect(response.json().result).toEqual({});
      });

      it('a Content-Type other than application/json gets 415', async () => {
        const response = await mcpHttp(baseUrl).post(
          JSON.stringify(rpcRequest(1, 'ping')),
          { 'content-type': 'text/plain' },
        );
        expect(response.status).toBe(415);
      });

      it('a body over 1 MiB gets 413 and the app still answers afterwards', async () => {
        const response = await sendExact(baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(1024 * 1024 + 1, 1),
        });
        expect(response.status).toBe(413);
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
        await expectAnswers(baseUrl);
      });

      it('a chunked body over 1 MiB gets 413 and the app still answers afterwards', async () => {
        const response = await sendExact(baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(2 * 1024 * 1024, 1),
          chunked: true,
        });
        expect(response.status).toBe(413);
        await expectAnswers(baseUrl);
      });

      it('a body of exactly 1 MiB is accepted', async () => {
        const response = await sendExact(baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(1024 * 1024, 1),
        });
        expect(response.status).toBe(200);
        expect(response.json().result).toEqual({});
      });
    });
  },
);

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP body limits, fixture apps on %s',
  (on) => {
    describe('maxBodySize: 1000', () => {
      const running = useApp(() => startApp(HttpSmallBodyModule, { on }));

      it('2000 bytes get 413', async () => {
        const response = await sendExact(running().baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(2000, 1),
        });
        expect(response.status).toBe(413);
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
        await expectAnswers(running().baseUrl);
      });

      it('2000 bytes sent chunked (no Content-Length) get 413', async () => {
        const response = await sendExact(running().baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(2000, 1),
          chunked: true,
        });
        expect(response.status).toBe(413);
        await expectAnswers(running().baseUrl);
      });

      it('900 bytes are accepted', async () => {
        const response = await sendExact(running().baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(900, 1),
        });
        expect(response.status).toBe(200);
        expect(response.json().result).toEqual({});
      });
    });

    describe("defaults (maxBodySize 1 MiB, Nest's default body parser)", () => {
      const running = useApp(() => startApp(HttpDefaultsModule, { on }));

      it('a 200 KB body, under the default 1 MiB limit, is accepted', async () => {
        const response = await sendExact(running().baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(200 * 1024, 1),
        });
        expect(response.status).toBe(200);
        expect(response.json().result).toEqual({});
      });

      it('a body over 1 MiB gets 413', async () => {
        const response = await sendExact(running().baseUrl, {
          headers: JSON_TYPE,
          body: paddedPing(1024 * 1024 + 1, 1),
        });
        expect(response.status).toBe(413);
        await expectAnswers(running().baseUrl);
      });
    });
  },
);

describe('MCP tools/call with bad inputs, fixture app', () => {
  let running: RunningApp;
  let baseUrl: string;
  let profiles: HttpProfilesService;

  beforeAll(async () => {
    running = await startApp(HttpInputsModule, {
      setup: (app) => app.useBodyParser('json', { limit: '1mb' }),
    });
    baseUrl = running.baseUrl;
    profiles = running.app.get(HttpProfilesService);
  });
  afterAll(() => running?.close());

  const valid = { name: 'Ada', age: 36, address: { city: 'London' } };

  async function expectValidationFailure(
    message: string | object,
  ): Promise<string> {
    const before = profiles.received.length;
    const result = toolResultOf(
      typeof message === 'string'
        ? await mcpHttp(baseUrl).post(message)
        : await mcpHttp(baseUrl).post(message),
    );
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0].type).toBe('text');
    expect(result.content[0].text).toMatch(/^VALIDATION_INVALID_001: /);
    expect(profiles.received).toHaveLength(before);
    return result.content[0].text;
  }

  it('a valid call reaches the handler with the DTO instances', async () => {
    const result = toolResultOf(
      await mcpHttp(baseUrl).post(callTool(1, 'profiles_save', valid)),
    );
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ saved: true, name: 'Ada' });
    const received = profiles.received.at(-1);
    expect(received).toBeInstanceOf(HttpProfileDto);
    expect(received?.address).toBeInstanceOf(HttpAddressDto);
  });

  it('10,000 levels of nested objects in arguments: VALIDATION_INVALID_001, and the server goes on', async () => {
    const body = `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"profiles_save","arguments":${nestedObjects(10_000, '{}')}}}`;
    await expectValidationFailure(body);
    await expectAnswers(baseUrl);
  });

  it('10,000 levels of nesting inside a nested DTO field: VALIDATION_INVALID_001', async () => {
    const body = `{"jsonrpc":"2.0","id":"deep-field","method":"tools/call","params":{"name":"profiles_save","arguments":{"name":"Ada","age":36,"address":{"city":"London","zip":${nestedObjects(10_000, '"1"')}}}}}`;
    await expectValidationFailure(body);
    await expectAnswers(baseUrl);
  });

  it('a huge nested array under the body limit: VALIDATION_INVALID_001, and the server goes on', async () => {
    const depth = 450_000;
    const body = `{"jsonrpc":"2.0","id":"arrays","method":"tools/call","params":{"name":"profiles_save","arguments":{"name":"Ada","age":36,"tags":${nestedArrays(depth)}}}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    await expectValidationFailure(body);
    await expectAnswers(baseUrl);
  });

  it('a whole message of deeply nested arrays is an invalid request, not a crash', async () => {
    const response = await mcpHttp(baseUrl).post(nestedArrays(450_000));
    expectProtocolError(response, {
      status: 400,
      code: -32600,
      dataCode: 'PROTOCOLS_VALIDATION_001',
      id: null,
    });
    await expectAnswers(baseUrl);
  });

  it('__proto__, constructor and prototype keys pollute nothing and never reach the handler', async () => {
    const poison = '{"polluted":"yes"}';
    const keys = `"__proto__":${poison},"constructor":{"prototype":${poison}},"prototype":${poison}`;
    const body =
      `{"jsonrpc":"2.0","id":"proto","method":"tools/call","__proto__":${poison},` +
      `"params":{"name":"profiles_save","__proto__":${poison},"arguments":{` +
      `"name":"Ada","age":36,${keys},"address":{"city":"London",${keys}}}}}`;
    // The raw text really carries the keys (a JS object literal would eat __proto__).
    const parsed = JSON.parse(body) as {
      params: { arguments: Record<string, unknown> };
    };
    expect(Object.keys(parsed.params.arguments)).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'prototype']),
    );

    const before = profiles.received.length;
    const result = toolResultOf(await mcpHttp(baseUrl).post(body));

    // What happens: the keys are dropped and the call is accepted without them.
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ saved: true, name: 'Ada' });
    expect(profiles.received).toHaveLength(before + 1);
    const received = profiles.received[before];
    expect(JSON.parse(JSON.stringify(received))).toEqual(valid);
    expect(Object.getPrototypeOf(received)).toBe(HttpProfileDto.prototype);
    expect(Object.getPrototypeOf(received.address)).toBe(
      HttpAddressDto.prototype,
    );
    expect(received.constructor).toBe(HttpProfileDto);
    const forbidden = ['__proto__', 'constructor', 'prototype'];
    const seen: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) {
        return;
      }
      for (const key of Object.getOwnPropertyNames(value)) {
        seen.push(key);
        walk((value as Record<string, unknown>)[key]);
      }
    };
    walk(received);
    expect(seen.filter((key) => forbidden.includes(key))).toEqual([]);
    expect(seen).not.toContain('polluted');
    expect((received as unknown as Record<string, unknown>).polluted).toBe(
      undefined,
    );

    // Nothing leaked into any prototype of the (in-process) app.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(Object.hasOwn(HttpProfileDto.prototype, 'polluted')).toBe(false);
    expect(Object.hasOwn(HttpAddressDto.prototype, 'polluted')).toBe(false);
    await expectAnswers(baseUrl);
  });

  it('wrong types: VALIDATION_INVALID_001 naming each failing field', async () => {
    const text = await expectValidationFailure(
      callTool('types', 'profiles_save', {
        name: 5,
        age: 'old',
        address: { city: 7 },
        tags: 'not-a-list',
      }),
    );
    expect(text).toMatch(/\bname\b/);
    expect(text).toMatch(/\bage\b/);
    expect(text).toMatch(/\baddress\.city\b/);
    expect(text).toMatch(/\btags\b/);
  });

  it('unknown properties: VALIDATION_INVALID_001 naming them', async () => {
    const text = await expectValidationFailure(
      callTool('unknown', 'profiles_save', {
        ...valid,
        admin: true,
        address: { city: 'London', floor: 3 },
      }),
    );
    expect(text).toMatch(/\badmin\b/);
    expect(text).toMatch(/\bfloor\b/);
    expect(text).not.toMatch(/\bcity\b/);
  });

  it('a missing nested object field: VALIDATION_INVALID_001 naming it', async () => {
    const text = await expectValidationFailure(
      callTool('missing', 'profiles_save', {
        name: 'Ada',
        age: 36,
        address: {},
      }),
    );
    expect(text).toMatch(/\baddress\.city\b/);
    expect(text).not.toMatch(/\bage\b/);
  });
});

describe('MCP readiness', () => {
  interface Booting {
    readonly app: NestExpressApplication;
    readonly baseUrl: string;
    readonly gate: HttpLifecycleGate;
  }

  type LifecycleModule =
    typeof HttpLifecycleModule | typeof HttpDeepLifecycleModule;

  async function createListening(module: LifecycleModule): Promise<Booting> {
    const { app, baseUrl } = await startApp(module, { init: false });
    return { app, baseUrl, gate: app.get(HttpLifecycleGate) };
  }

  async function expectNotReady(baseUrl: string): Promise<void> {
    const response = await mcpHttp(baseUrl).post(rpcRequest(1, 'tools/list'));
    expect(response.status).toBe(503);
    expect(response.header('retry-after')).toBe('1');
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The application is not ready.',
    });
  }

  /**
   * Shutdown hooks run once the server has let go of every connection: a
   * new one is refused (on a connection of its own, not one fetch pooled).
   */
  async function expectNoConnection(baseUrl: string): Promise<void> {
    const refused = await sendExact(baseUrl, {
      headers: JSON_TYPE,
      body: JSON.stringify(rpcRequest(1, 'tools/list')),
      agent: new Agent({ keepAlive: false }),
    }).then(
      () => 'answered',
      (error: NodeJS.ErrnoException) => String(error.code),
    );
    expect(refused).toBe('ECONNREFUSED');
  }

  interface Lifecycle extends Booting {
    closing?: Promise<void>;
  }

  async function withLifecycle(
    module: LifecycleModule,
    test: (lifecycle: Lifecycle) => Promise<void>,
  ): Promise<void> {
    const lifecycle: Lifecycle = await createListening(module);
    try {
      await test(lifecycle);
    } finally {
      lifecycle.gate.releaseAll();
      await (lifecycle.closing ?? lifecycle.app.close());
    }
  }

  async function expectReady(baseUrl: string): Promise<void> {
    const response = await mcpHttp(baseUrl).post(rpcRequest(2, 'tools/list'));
    expect(response.status).toBe(200);
    const { tools } = resultOf<{ tools: { name: string }[] }>(response);
    expect(tools.map((tool) => tool.name)).toContain('profiles_save');
  }

  const placements: readonly [string, LifecycleModule][] = [
    ['the root module', HttpLifecycleModule],
    ['a module deeper than McpModule', HttpDeepLifecycleModule],
  ];

  // The root module's hooks run after McpServerLifecycleModule's own: ready
  // there already (libs/mcp/src/lifecycle/mcp-server-lifecycle.module.spec.ts).
  const deeper = placements.filter(([name]) => name !== 'the root module');
  it.each(deeper)(
    '503 with Retry-After while a provider of %s is in onApplicationBootstrap, 200 once init is done',
    (_name, module) =>
      withLifecycle(module, async ({ app, baseUrl, gate }) => {
        const init = app.init();
        init.catch(() => undefined);
        await gate.bootReached.promise;
        try {
          await expectNotReady(baseUrl);
          const starting = await readiness(baseUrl);
          expect(starting.status).toBe(503);
          expect(starting.json()).toEqual({ status: 'starting' });
          expect(starting.header('retry-after')).toBe('1');
          expect(starting.header('cache-control')).toBe('no-store');
        } finally {
          gate.bootRelease.resolve();
        }
        await init;
        await expectReady(baseUrl);
        const ready = await readiness(baseUrl);
        expect(ready.status).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
        expect(ready.header('cache-control')).toBe('no-store');
      }),
  );

  // The drain starts from McpServerLifecycleModule's own onModuleDestroy,
  // which Nest runs after the root module's (see that module's spec).
  it.each(deeper)(
    'no connection taken while a provider of %s is in onModuleDestroy, which Nest runs root module first',
    (_name, module) =>
      withLifecycle(module, async (lifecycle) => {
        const { app, baseUrl, gate } = lifecycle;
        gate.bootRelease.resolve();
        gate.shutdownRelease.resolve();
        gate.holdDestroy = true;
        await app.init();
        await expectReady(baseUrl);

        lifecycle.closing = app.close();
        await gate.destroyReached.promise;
        try {
          await expectNoConnection(baseUrl);
        } finally {
          gate.destroyRelease.resolve();
        }
        await lifecycle.closing;
      }),
  );

  it.each(placements)(
    'no connection taken while a provider of %s is in beforeApplicationShutdown',
    (_name, module) =>
      withLifecycle(module, async (lifecycle) => {
        const { app, baseUrl, gate } = lifecycle;
        gate.bootRelease.resolve();
        await app.init();
        await expectReady(baseUrl);

        lifecycle.closing = app.close();
        await gate.shutdownReached.promise;
        try {
          await expectNoConnection(baseUrl);
        } finally {
          gate.shutdownRelease.resolve();
        }
        await lifecycle.closing;
      }),
  );
  // An app served from its own server (serverless handlers, a server the
  // app makes itself): Nest's server, which McpModule drains, never
  // listens, so it is the end of the drain that stops the serving.
  it('503 once the app is closing, on a server of its own that Nest did not make (app.init(), no listen)', async () => {
    const app = await createApp(HttpDeepLifecycleModule);
    const gate = app.get(HttpLifecycleGate);
    gate.bootRelease.resolve();
    gate.shutdownRelease.resolve();
    gate.holdDestroy = true;
    const own = createServer(app.getHttpAdapter().getInstance());
    let closing: Promise<void> | undefined;
    try {
      await app.init();
      await new Promise<void>((listening) =>
        own.listen(0, '127.0.0.1', listening),
      );
      const baseUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
      await expectReady(baseUrl);

      closing = app.close();
      await gate.destroyReached.promise;
      await expectNotReady(baseUrl);
      const leaving = await readiness(baseUrl);
      expect(leaving.status).toBe(503);
      expect(leaving.json()).toEqual({ status: 'leaving' });
    } finally {
      gate.releaseAll();
      await (closing ?? app.close());
      own.closeAllConnections();
      await new Promise((closed) => own.close(closed));
    }
  });
});

describe("McpServerLifecycleModule's view of the app's lifecycle", () => {
  async function startWithWarnings(
    module: Parameters<typeof startApp>[0],
  ): Promise<{ running: RunningApp; warnings: string[] }> {
    const log = new WarningLog();
    const running = await startApp(module, { logger: log });
    return { running, warnings: log.warnings };
  }

  const lifecycleWarnings = (warnings: readonly string[]) =>
    warnings.filter((warning) =>
      warning.startsWith('McpServerLifecycleModule cannot tell'),
    );

  it('arranges both without a warning where the installed Nest has what it needs', async () => {
    @Module({
      imports: [
        McpModule.forRoot({ serverName: 'http-managed' }),
        McpServerLifecycleModule.forRoot(),
      ],
    })
    class ManagedModule {}
    const { running, warnings } = await startWithWarnings(ManagedModule);
    try {
      expect(lifecycleWarnings(warnings)).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it('serves, without a warning, an app whose root module class depends on request-scoped providers', async () => {
    const { running, warnings } = await startWithWarnings(HttpScopedRootModule);
    try {
      expect(lifecycleWarnings(warnings)).toEqual([]);
      const response = await mcpHttp(running.baseUrl).post(
        rpcRequest(1, 'tools/list'),
      );
      expect(response.status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe('MCP per-call timeout, fixture app', () => {
  const running = useApp(() => startApp(HttpTimeoutModule));

  it('a call that outlives timeout is INTERNAL_TIMEOUT_001 and its signal is aborted', async () => {
    const signals = running().app.get(HttpSignalsService);
    const result = toolResultOf(
      await mcpHttp(running().baseUrl).post(
        callTool('slow', 'signals_wait', {}),
      ),
    );
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^INTERNAL_TIMEOUT_001: /);

    expect(signals.outcomes).toHaveLength(1);
    const outcome = await signals.outcomes[0];
    expect(outcome.aborted).toBe(true);
    expect(outcome.signal.aborted).toBe(true);
    await expectAnswers(running().baseUrl);
  });
});
