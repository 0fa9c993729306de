import { Module } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { STATUS_CODES } from 'node:http';
import { connect, type Socket } from 'node:net';
import { JSON_TYPE, sendExact } from '../support/mcp-http';
import { HTTP_ADAPTERS, startApp, useApp } from '../support/start-app';

/**
 * What a client sees of the connection: the MCP path taken exactly on both
 * adapters, and a request the HTTP parser refuses answered with
 * `Connection: close` (on Fastify, with docs/guides/fastify.md's `clientErrorHandler`).
 */

@Module({ imports: [McpModule.forRoot({ serverName: 'connection' })] })
class ConnectionPathModule {}

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/** docs/guides/fastify.md's `clientErrorHandler`, as it is there. */
function closingClientError(
  error: Error & { code?: string },
  socket: Socket,
): void {
  const status =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 408
        : 400;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`,
    );
  }
  socket.destroy(error);
}

/** Writes `bytes` on a new connection and reads until the server ends it. */
function exchange(baseUrl: string, bytes: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error(`The connection stayed open after: ${text}`));
    });
    socket.write(bytes);
  });
}

/** The malformed requests the parser refuses, with the status each gets. */
const MALFORMED = [
  [
    'an 18 KB Accept-Language',
    `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: ${'x'.repeat(18 * 1024)}\r\n\r\n`,
    431,
  ],
  [
    'a control character in a header',
    'GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Probe: a\u0001b\r\n\r\n',
    400,
  ],
] as const;

describe.each(HTTP_ADAPTERS)('MCP HTTP path and connection on %s', (on) => {
  const running = useApp(() =>
    startApp(ConnectionPathModule, {
      on,
      ...(on === 'fastify'
        ? { fastify: { clientErrorHandler: closingClientError } }
        : {}),
    }),
  );

  it('serves POST /mcp with a query', async () => {
    const reply = await sendExact(running().baseUrl, {
      path: '/mcp?probe=1',
      headers: JSON_TYPE,
      body: PING,
    });
    expect(reply.status).toBe(200);
  });

  it.each(['/mcp/', '/MCP', '/Mcp/'])(
    'takes the path exactly: POST %s is the app’s 404',
    async (path) => {
      const reply = await sendExact(running().baseUrl, {
        path,
        headers: JSON_TYPE,
        body: PING,
      });
      expect(reply.status).toBe(404);
    },
  );

  it.each(MALFORMED)(
    '%s: refused with Connection: close, then the connection ends',
    async (_name, bytes, status) => {
      const text = await exchange(running().baseUrl, bytes);
      const head = text.split('\r\n\r\n')[0];
      expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    },
  );

  it('after the refusal, a new connection is served', async () => {
    await exchange(running().baseUrl, MALFORMED[1][1]);
    const reply = await sendExact(running().baseUrl, {
      headers: JSON_TYPE,
      body: PING,
    });
    expect(reply.status).toBe(200);
  });
});

describe("Fastify's own clientError answer (without the docs' handler)", () => {
  const running = useApp(() =>
    startApp(ConnectionPathModule, { on: 'fastify' }),
  );

  it('says no Connection: close, which is why the docs give the handler', async () => {
    const text = await exchange(running().baseUrl, MALFORMED[0][1]);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text.split('\r\n\r\n')[0]).not.toMatch(/connection: close/i);
  });
});
