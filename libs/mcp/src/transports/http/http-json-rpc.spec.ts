import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PermissionGate } from '../../auth/permission-gate.js';
import { MAX_BATCH_SIZE } from '../../mcp.constants.js';
import type { McpMessage } from '../../protocol/mcp-message.js';
import type { McpProtocol } from '../../protocol/mcp-protocol.js';
import type { McpTransport } from '../../protocol/mcp-transport.js';
import { defaultPrincipalId } from '../../telemetry/telemetry-options.resolver.js';
import { HttpJsonRpc } from './http-json-rpc.js';

/**
 * The HTTP JSON-RPC layer between a POST and the protocol layer, over a
 * real Node server; the protocol is a recorder that answers each request
 * with what `answers` holds for its method (`{}` by default).
 */
const received: Array<{ message: McpMessage; transport: McpTransport }> = [];
type RpcError = { code: number; message: string; data: object };
let answers: Record<string, RpcError> = {};
const protocol = {
  openSession: () => ({ cancelAll: () => undefined }),
  receive: (message: McpMessage, transport: McpTransport) => {
    received.push({ message, transport });
    if (message.kind !== 'request') {
      return Promise.resolve(undefined);
    }
    const error = answers[message.method];
    return Promise.resolve(
      error
        ? { jsonrpc: '2.0', id: message.id, error }
        : { jsonrpc: '2.0', id: message.id, result: {} },
    );
  },
} as unknown as McpProtocol;
let refusing = false;
const gate = {
  refuses: (_messages: unknown, _principal: unknown, res: never) => {
    if (refusing) {
      (res as { writeHead(status: number): { end(): void } })
        .writeHead(401)
        .end();
    }
    return refusing;
  },
} as unknown as PermissionGate;
const rpc = new HttpJsonRpc(protocol, defaultPrincipalId, gate);

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => void rpc.answer(req, JSON.parse(body), res));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((done) => server.close(done)));
beforeEach(() => {
  received.length = 0;
  answers = {};
  refusing = false;
});

async function post(message: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : text };
}

const request = (id: number, method: string) => ({
  jsonrpc: '2.0',
  id,
  method,
});
const note = (method: string) => ({ jsonrpc: '2.0', method });

describe('HttpJsonRpc', () => {
  it('answers a 2025 request 200 with its response; its peer is its credentials (no principal)', async () => {
    const reply = await post(request(1, 'ping'), { authorization: 'Bearer a' });
    expect(reply).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 1, result: {} },
    });
    expect(received[0].transport).toMatchObject({
      kind: 'http',
      peer: 'credentials bearer a',
    });
  });

  it('answers a notification 202 with no body', async () => {
    expect(await post(note('notifications/initialized'))).toEqual({
      status: 202,
      body: '',
    });
    expect(received).toHaveLength(1);
  });

  it('refuses a 2025 request under a version not spoken here, 400 -32600, unserved', async () => {
    const reply = await post(request(2, 'ping'), {
      'mcp-protocol-version': '1999-01-01',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      id: 2,
      error: { code: -32600, data: { code: 'PROTOCOLS_VALIDATION_002' } },
    });
    expect(received).toHaveLength(0);
  });

  it('gives an internal error 500, an invalid request 400, any other error 200', async () => {
    answers = {
      boom: { code: -32603, message: 'x', data: {} },
      bad: { code: -32600, message: 'x', data: {} },
      nope: { code: -32601, message: 'x', data: {} },
    };
    expect((await post(request(3, 'boom'))).status).toBe(500);
    expect((await post(request(4, 'bad'))).status).toBe(400);
    expect((await post(request(5, 'nope'))).status).toBe(200);
  });

  it('serves nothing the permission gate refuses', async () => {
    refusing = true;
    expect((await post(request(6, 'tools/list'))).status).toBe(401);
    expect(received).toHaveLength(0);
  });

  describe('a batch, under 2025-03-26', () => {
    const batch = { 'mcp-protocol-version': '2025-03-26' };

    it('serves each message in order and answers the requests together', async () => {
      const reply = await post(
        [request(7, 'ping'), note('notifications/x'), request(8, 'ping')],
        batch,
      );
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual([
        { jsonrpc: '2.0', id: 7, result: {} },
        { jsonrpc: '2.0', id: 8, result: {} },
      ]);
      expect(received.map(({ transport }) => transport.peer)).toEqual([
        'address 127.0.0.1',
        'address 127.0.0.1',
        'address 127.0.0.1',
      ]);
    });

    it('answers a batch of notifications 202', async () => {
      expect((await post([note('notifications/x')], batch)).status).toBe(202);
    });

    it.each([
      ['empty', [], 'the batch is empty'],
      [
        'too long',
        Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) =>
          request(i, 'ping'),
        ),
        `a batch holds at most ${MAX_BATCH_SIZE} messages`,
      ],
    ])('refuses one %s, 400 -32600, unserved', async (_name, messages, why) => {
      const reply = await post(messages, batch);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining(why) },
      });
      expect(received).toHaveLength(0);
    });
  });
});
