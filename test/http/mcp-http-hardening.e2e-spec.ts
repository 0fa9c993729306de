import { OperationInvoker } from '@nestops/operations/internal';
import { connect } from 'node:net';
import {
  OuterAuthModule,
  RecordingLogger,
} from '../fixtures/outer-auth-fixtures';
import type { RpcBody, ToolResult } from '../support/json-rpc-shapes';
import { type McpReply, rpcRequest, mcpHttp } from '../support/mcp-http';
import { startSampleApp } from '../support/sample-app';
import {
  HTTP_ADAPTERS,
  type NestHttpApplication,
  startApp,
  type RunningApp,
} from '../support/start-app';

interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly correlationId?: string;
}

type Message = Readonly<Record<string, unknown>>;

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ALICE = { authorization: 'ApiKey dev-alice-key' } as const;
const BATCH_VERSION = { 'mcp-protocol-version': '2025-03-26' } as const;

function callTool(id: string | number, name: string, args: Message) {
  return rpcRequest(id, 'tools/call', { name, arguments: args });
}

const notification = (method: string): Message => ({ jsonrpc: '2.0', method });

function toolResult(body: RpcBody): ToolResult {
  expect(body.error).toBeUndefined();
  return body.result as ToolResult;
}

function expectRpcError(
  body: RpcBody,
  expected: { id: string | number | null; code: number; dataCode: string },
): void {
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(expected.id);
  expect(body).not.toHaveProperty('result');
  expect(body.error?.code).toBe(expected.code);
  expect(body.error?.data.code).toBe(expected.dataCode);
  expect(typeof body.error?.message).toBe('string');
}

function expectSingleInvalidRequest(
  response: McpReply,
  dataCode: string,
): void {
  expect(response.status).toBe(400);
  expect(response.header('content-type')).toMatch(/^application\/json/);
  const body = response.json<RpcBody | RpcBody[]>();
  expect(Array.isArray(body)).toBe(false);
  expectRpcError(body as RpcBody, { id: null, code: -32600, dataCode });
}

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP outer authenticator failures, fixture app on %s',
  (on) => {
    let running: RunningApp<NestHttpApplication>;
    let baseUrl: string;
    let logger: RecordingLogger;

    beforeAll(async () => {
      logger = new RecordingLogger();
      running = await startApp(OuterAuthModule, { logger, on });
      baseUrl = running.baseUrl;
    });
    afterAll(() => running?.close());
    beforeEach(() => {
      logger.entries.length = 0;
    });

    const list = rpcRequest(1, 'tools/list');

    it.each([
      ['throws UnauthorizedException', 'unknown'],
      ['returns false', 'false'],
    ])(
      'a guard that %s: 401 with WWW-Authenticate, nothing logged as an error',
      async (_name, token) => {
        const response = await mcpHttp(baseUrl).post(list, {
          authorization: `Bearer ${token}`,
        });
        expect(response.status).toBe(401);
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
        expect(response.header('www-authenticate')).toBe(
          'Bearer realm="outer-auth"',
        );
        expect(response.json<Problem>()).toEqual({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          detail: 'The credentials are not valid.',
        });
        expect(logger.errors()).toEqual([]);
      },
    );

    it.each([
      ['throws an Error', 'db-down', 'database down'],
      ['returns a rejected promise', 'rejected', 'lookup rejected'],
      [
        'returns an observable that errors',
        'observable-error',
        'lookup stream',
      ],
    ])(
      'a guard that %s: 500 problem+json with the caller correlation id, logged with its stack',
      async (_name, token, cause) => {
        const response = await mcpHttp(baseUrl).post(list, {
          authorization: `Bearer ${token}`,
          'x-correlation-id': 'outer-auth-1',
        });
        expect(response.status).toBe(500);
        expect(response.header('content-type')).toMatch(
          /^application\/problem\+json/,
        );
        expect(response.header('www-authenticate')).toBeUndefined();
        const problem = response.json<Problem>();
        expect(problem).toMatchObject({
          type: 'about:blank',
          title: 'Internal Server Error',
          status: 500,
          correlationId: 'outer-auth-1',
        });
        expect(problem.detail).toContain('outer-auth-1');
        expect(problem).not.toHaveProperty('jsonrpc');
        expect(response.text).not.toContain(cause);

        const errors = logger.errors();
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain('outer-auth-1');
        expect(errors[0]).toContain(`Error: ${cause}`);
        expect(errors[0]).toMatch(/\n\s+at /);
        expect(logger.entries.at(-1)?.params.at(-1)).toBe('McpHttpTransport');
      },
    );

    it('a body the client cuts off: the request is given up (on Fastify, logged with its cause), and the app goes on', async () => {
      const { host, port } = new URL(baseUrl);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), host.replace(/:\d+$/, ''), () => {
          socket.write(
            'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
              'Authorization: Bearer ok\r\nContent-Length: 500\r\n\r\n{"jsonrpc"',
          );
          // The body's first bytes are read before the connection goes.
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 50);
        });
        socket.on('error', reject);
      });
      if (on === 'fastify') {
        await vi.waitFor(() => expect(logger.errors()).toHaveLength(1));
        const [error] = logger.errors();
        expect(error).toMatch(/^An MCP HTTP request could not be served\n/);
        expect(error).toMatch(/aborted/);
        expect(error).toMatch(/\n\s+at /);
        expect(logger.entries.at(-1)?.params.at(-1)).toBe('McpModule');
      }
      const after = await mcpHttp(baseUrl).post(list, {
        authorization: 'Bearer ok',
      });
      expect(after.status).toBe(200);
    });

    it('a guard that throws an HttpException other than 401 and 403: the guard failing, 500', async () => {
      const response = await mcpHttp(baseUrl).post(list, {
        authorization: 'Bearer throttled',
      });
      expect(response.status).toBe(500);
      expect(response.header('www-authenticate')).toBeUndefined();
      expect(response.json<Problem>()).toMatchObject({
        title: 'Internal Server Error',
        status: 500,
      });
      expect(logger.errors()).toHaveLength(1);
    });

    it.each(['=token', '"quoted"'])(
      'credentials %j that name no scheme: the challenge names Bearer',
      async (authorization) => {
        const response = await mcpHttp(baseUrl).post(list, { authorization });
        expect(response.status).toBe(401);
        expect(response.header('www-authenticate')).toBe(
          'Bearer realm="outer-auth"',
        );
      },
    );

    it.each([
      ['absent', undefined],
      ['empty', ''],
      ['129 characters long', 'x'.repeat(129)],
      ['not visible ASCII', 'has space'],
    ])(
      'an X-Correlation-Id that is %s: the 500 carries a new UUID, also logged',
      async (_name, given) => {
        const response = await mcpHttp(baseUrl).post(list, {
          authorization: 'Bearer db-down',
          ...(given === undefined ? {} : { 'x-correlation-id': given }),
        });
        expect(response.status).toBe(500);
        const { correlationId } = response.json<Problem>();
        expect(correlationId).toMatch(UUID);
        expect(logger.errors()[0]).toContain(correlationId);
      },
    );

    it('an X-Correlation-Id of 128 visible ASCII characters is kept', async () => {
      const given = '!~'.repeat(64);
      const response = await mcpHttp(baseUrl).post(list, {
        authorization: 'Bearer db-down',
        'x-correlation-id': given,
      });
      expect(response.json<Problem>().correlationId).toBe(given);
    });

    it('the server goes on after a failing guard', async () => {
      await mcpHttp(baseUrl).post(list, { authorization: 'Bearer db-down' });
      const response = await mcpHttp(baseUrl).post(list, {
        authorization: 'Bearer ok',
      });
      expect(response.status).toBe(200);
      expect(response.json().result).toEqual({
        tools: [expect.objectContaining({ name: 'echo_say' })],
      });
    });

    it('ForbiddenException is not a failed authentication: the POST is admitted and each call is judged by its own guards', async () => {
      const forbidden = { authorization: 'Bearer forbidden' };

      const listed = await mcpHttp(baseUrl).post(list, forbidden);
      expect(listed.status).toBe(200);
      expect(listed.header('www-authenticate')).toBeUndefined();
      expect(listed.json().result).toEqual({
        tools: [expect.objectContaining({ name: 'echo_say' })],
      });

      const called = await mcpHttp(baseUrl).post(
        callTool(2, 'echo_say', {}),
        forbidden,
      );
      expect(called.status).toBe(200);
      const result = toolResult(called.json());
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^SECURITY_DENIED_001: /);
      expect(logger.errors()).toEqual([]);
    });

    describe('an unexpected failure while a message is served', () => {
      afterEach(() => {
        vi.restoreAllMocks();
      });

      /** The next `times` calls fail unexpectedly, as a bug would. */
      function breakDispatcher(times: number): void {
        const spy = vi.spyOn(running.app.get(OperationInvoker), 'invoke');
        for (let i = 0; i < times; i += 1) {
          spy.mockRejectedValueOnce(new Error('catalogue exploded'));
        }
      }

      it('a single message: 500 JSON-RPC -32603 with error.data.correlationId, logged with its stack', async () => {
        breakDispatcher(1);
        const response = await mcpHttp(baseUrl).post(
          callTool(7, 'echo_say', {}),
          {
            'x-correlation-id': 'dispatch-1',
          },
        );
        expect(response.status).toBe(500);
        expect(response.header('content-type')).toMatch(/^application\/json/);
        const body = response.json();
        expectRpcError(body, {
          id: 7,
          code: -32603,
          dataCode: 'INTERNAL_ERROR_001',
        });
        expect(body.error?.data.correlationId).toBe('dispatch-1');
        expect(response.text).not.toContain('catalogue exploded');

        const errors = logger.errors();
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain('dispatch-1');
        expect(errors[0]).toContain('Error: catalogue exploded');
        expect(errors[0]).toMatch(/\n\s+at /);
      });

      it('a single message without X-Correlation-Id: a new UUID, the one logged', async () => {
        breakDispatcher(1);
        const response = await mcpHttp(baseUrl).post(
          callTool(8, 'echo_say', {}),
        );
        expect(response.status).toBe(500);
        const correlationId = response.json().error?.data.correlationId;
        expect(correlationId).toMatch(UUID);
        expect(logger.errors()[0]).toContain(correlationId);
      });

      it('one element of a 2025-03-26 batch: its own -32603 entry, the others still answered', async () => {
        breakDispatcher(1);
        const response = await mcpHttp(baseUrl).post(
          [
            callTool('broken', 'echo_say', {}),
            callTool('fine', 'echo_say', {}),
            rpcRequest('ping', 'ping'),
          ],
          { ...BATCH_VERSION, 'x-correlation-id': 'batch-1' },
        );
        expect(response.status).toBe(200);
        const [broken, fine, ping] = response.json<RpcBody[]>();
        expectRpcError(broken, {
          id: 'broken',
          code: -32603,
          dataCode: 'INTERNAL_ERROR_001',
        });
        expect(broken.error?.data.correlationId).toBe('batch-1');
        expect(toolResult(fine).structuredContent).toEqual({ said: 'hello' });
        expect(ping).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
        expect(logger.errors()).toHaveLength(1);
        expect(logger.errors()[0]).toContain('batch-1');
      });
    });
  },
);

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP JSON-RPC batches and versions, sample app on %s',
  (on) => {
    let running: RunningApp<NestHttpApplication>;
    let baseUrl: string;

    beforeAll(async () => {
      running = await startSampleApp('sqlite', { on });
      baseUrl = running.baseUrl;
    });
    afterAll(() => running?.close());

    describe('with MCP-Protocol-Version 2025-03-26', () => {
      const headers = { ...ALICE, ...BATCH_VERSION };

      it('two tools/calls and a notification: the two answers, in order', async () => {
        const response = await mcpHttp(baseUrl).post(
          [
            callTool('first', 'orders_create', { name: 'Tea', amount: 2 }),
            notification('notifications/initialized'),
            callTool(2, 'orders_create', { name: 'Coffee', amount: 3 }),
          ],
          headers,
        );
        expect(response.status).toBe(200);
        expect(response.header('content-type')).toMatch(/^application\/json/);
        const answers = response.json<RpcBody[]>();
        expect(answers.map((answer) => answer.id)).toEqual(['first', 2]);
        const [tea, coffee] = answers.map(toolResult);
        expect(tea.isError).toBeUndefined();
        expect(tea.structuredContent).toMatchObject({ name: 'Tea', amount: 2 });
        expect(coffee.isError).toBeUndefined();
        expect(coffee.structuredContent).toMatchObject({
          name: 'Coffee',
          amount: 3,
        });
        expect(tea.structuredContent?.id).not.toBe(
          coffee.structuredContent?.id,
        );
      });

      it('each element is its own invocation: a failing call does not stop the others', async () => {
        const response = await mcpHttp(baseUrl).post(
          [
            callTool(1, 'orders_create', { name: 'Tea', amount: 0 }),
            callTool(2, 'orders_create', { name: 'Milk', amount: 1 }),
          ],
          headers,
        );
        expect(response.status).toBe(200);
        const [invalid, created] = response.json<RpcBody[]>().map(toolResult);
        expect(invalid.isError).toBe(true);
        expect(invalid.content[0].text).toMatch(/^VALIDATION_INVALID_001: /);
        expect(created.structuredContent).toMatchObject({ name: 'Milk' });
      });

      it('invalid JSON-RPC elements among valid ones get their own error entries', async () => {
        const response = await mcpHttp(baseUrl).post(
          [
            rpcRequest('a', 'ping'),
            { jsonrpc: '1.0', id: 'old', method: 'ping' },
            42,
            [rpcRequest('nested', 'ping')],
            rpcRequest('b', 'no/such/method'),
            callTool('c', 'orders_list', {}),
          ],
          headers,
        );
        expect(response.status).toBe(200);
        const answers = response.json<RpcBody[]>();
        expect(answers).toHaveLength(6);
        expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
        expectRpcError(answers[1], {
          id: 'old',
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_001',
        });
        for (const answer of [answers[2], answers[3]]) {
          expectRpcError(answer, {
            id: null,
            code: -32600,
            dataCode: 'PROTOCOLS_VALIDATION_001',
          });
        }
        expectRpcError(answers[4], {
          id: 'b',
          code: -32601,
          dataCode: 'PROTOCOLS_NOTFOUND_001',
        });
        expect(answers[5].id).toBe('c');
        expect(toolResult(answers[5]).isError).toBeUndefined();
      });

      it('only notifications and client responses: 202 and no body', async () => {
        const response = await mcpHttp(baseUrl).post(
          [
            notification('notifications/initialized'),
            { jsonrpc: '2.0', id: 'srv-1', result: {} },
            notification('notifications/cancelled'),
          ],
          headers,
        );
        expect(response.status).toBe(202);
        expect(response.text).toBe('');
      });

      it('an empty array: one -32600 error, 400', async () => {
        const response = await mcpHttp(baseUrl).post([], headers);
        expectSingleInvalidRequest(response, 'PROTOCOLS_VALIDATION_001');
      });

      it('100 elements are answered', async () => {
        const batch = Array.from({ length: 100 }, (_, i) =>
          rpcRequest(i, 'ping'),
        );
        const response = await mcpHttp(baseUrl).post(batch, headers);
        expect(response.status).toBe(200);
        const answers = response.json<RpcBody[]>();
        expect(answers.map((answer) => answer.id)).toEqual(
          batch.map((message) => message.id),
        );
      });

      it('101 elements: one -32600 error naming the limit, 400, nothing run', async () => {
        const batch = Array.from({ length: 101 }, (_, i) =>
          callTool(i, 'orders_create', { name: `Bulk ${i}`, amount: 1 }),
        );
        const response = await mcpHttp(baseUrl).post(batch, headers);
        expectSingleInvalidRequest(response, 'PROTOCOLS_VALIDATION_001');
        expect(response.json().error?.message).toContain('100');

        const listed = await mcpHttp(baseUrl).post(
          callTool('list', 'orders_list', {}),
          ALICE,
        );
        expect(listed.text).not.toContain('Bulk ');
      });

      it('invalid credentials get 401 before the batch is read', async () => {
        const response = await mcpHttp(baseUrl).post([rpcRequest(1, 'ping')], {
          ...BATCH_VERSION,
          authorization: 'ApiKey nope',
        });
        expect(response.status).toBe(401);
        expect(response.header('www-authenticate')).toMatch(/^ApiKey\b/);
      });
    });

    it.each([
      ['without MCP-Protocol-Version', {}],
      [
        'with MCP-Protocol-Version 2025-06-18',
        { 'mcp-protocol-version': '2025-06-18' },
      ],
      [
        'with MCP-Protocol-Version 2025-11-25',
        { 'mcp-protocol-version': '2025-11-25' },
      ],
    ])(
      'an array body %s stays a -32600 invalid request, 400',
      async (_name, version) => {
        const response = await mcpHttp(baseUrl).post(
          [rpcRequest(1, 'ping'), rpcRequest(2, 'ping')],
          { ...ALICE, ...version },
        );
        expectSingleInvalidRequest(response, 'PROTOCOLS_VALIDATION_001');
      },
    );

    it.each([
      ['a request', rpcRequest(1, 'tools/list'), 1],
      ['a batch', [rpcRequest(1, 'ping')], null],
    ])(
      'MCP-Protocol-Version 2024-11-05 on %s: 400 -32600 PROTOCOLS_VALIDATION_002',
      async (_name, body, id) => {
        const response = await mcpHttp(baseUrl).post(body, {
          'mcp-protocol-version': '2024-11-05',
        });
        expect(response.status).toBe(400);
        const answer = response.json();
        expectRpcError(answer, {
          id,
          code: -32600,
          dataCode: 'PROTOCOLS_VALIDATION_002',
        });
        expect(answer.error?.message).toContain('2024-11-05');
      },
    );
  },
);
