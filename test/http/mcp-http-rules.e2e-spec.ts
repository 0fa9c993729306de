import { Injectable, Module } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Test, type TestingModule } from '@nestjs/testing';
import express, { type RequestHandler } from 'express';
import { McpModule } from '@nestops/mcp';
import {
  LATEST_PROTOCOL_VERSION,
  McpProtocol,
  McpToolCatalogue,
} from '@nestops/mcp/internal';
import { Operation } from '@nestops/operations';
import { OperationMessages } from '@nestops/operations/internal';
import { request } from 'node:http';
import type { RpcBody } from '../support/json-rpc-shapes';
import { JSON_TYPE, sendExact } from '../support/mcp-http';
import { MODERN_VERSION, modernRequest } from '../support/modern-mcp';
import { HttpSmallBodyModule } from '../fixtures/http-fixtures';
import { useSampleApp } from '../support/sample-app';
import {
  HTTP_ADAPTERS,
  startApp,
  type RunningApp,
  useApp,
} from '../support/start-app';

/**
 * Rules of the MCP endpoint that each held against one broken line:
 * the Content-Type check anchored, an empty Origin judged like any other,
 * `cacheTtl: 0` kept, and `initialize` answering only 2025 revisions.
 */

const CREATE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'orders_create', arguments: { name: 'csrf', amount: 1 } },
});
const ALICE = 'ApiKey dev-alice-key';

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP request rules, sample app on %s',
  (on) => {
    const running = useSampleApp('sqlite', on);

    beforeEach(() => running().clearOrders());

    async function orderCount(): Promise<number> {
      const rows: Array<{ count: number }> = await running().dataSource.query(
        'SELECT COUNT(*) AS count FROM orders',
      );
      return Number(rows[0].count);
    }

    it.each(['text/plain; x=application/json', 'text/plain;application/json'])(
      'refuses Content-Type %j with 415 and runs nothing (a browser sends it without a preflight)',
      async (type) => {
        const reply = await sendExact(running().baseUrl, {
          headers: { 'content-type': type, authorization: ALICE },
          body: CREATE,
        });

        expect(reply.status).toBe(415);
        expect(JSON.parse(reply.text)).toMatchObject({
          status: 415,
          title: 'Unsupported Media Type',
          detail: 'Send the JSON-RPC message as application/json.',
        });
        expect(await orderCount()).toBe(0);
      },
    );

    it('judges an empty Origin header like any other origin: 403, nothing run', async () => {
      const reply = await sendExact(running().baseUrl, {
        body: CREATE,
        headers: {
          'content-type': 'application/json',
          authorization: ALICE,
          origin: '',
        },
      });

      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.text)).toMatchObject({
        status: 403,
        title: 'Forbidden',
        detail: 'Origin  is not allowed.',
      });
      expect(await orderCount()).toBe(0);
    });

    it('picks the language from the whole Accept-Language header, not its first entry', async () => {
      const messages = running().app.get(OperationMessages, { strict: false });
      const titleFor = async (acceptLanguage: string) => {
        const reply = await sendExact(running().baseUrl, {
          headers: {
            'content-type': 'application/json',
            'accept-language': acceptLanguage,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        const { result } = JSON.parse(reply.text) as RpcBody;
        return (result as { tools: Array<{ title: string }> }).tools[0].title;
      };

      for (let round = 0; round < 2; round++) {
        expect(messages.localeOf('fr, zh-CN')).toBe('zh-CN');
        expect(messages.localeOf('fr, en-US')).toBe('en-US');
        expect(await titleFor('fr;q=0.9, zh-CN;q=0.8')).toBe('创建订单');
        expect(await titleFor('fr;q=0.9, en;q=0.8')).toBe('Create an order');
      }
    });

    it('still serves a request without Origin, with application/json; charset=utf-8', async () => {
      const reply = await sendExact(running().baseUrl, {
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: ALICE,
        },
        body: CREATE,
      });

      expect(reply.status).toBe(200);
      expect(await orderCount()).toBe(1);
    });
  },
);

/** A ping of exactly `bytes` bytes. */
function pingOf(bytes: number): string {
  const build = (pad: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad } });
  const text = build('x'.repeat(bytes - Buffer.byteLength(build(''))));
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP body limit, maxBodySize: 1000, on %s',
  (on) => {
    const running = useApp(() => startApp(HttpSmallBodyModule, { on }));

    it.each([false, true])(
      'answers a body of exactly 1000 bytes and refuses 1001 with 413 (chunked: %s)',
      async (chunked) => {
        // Chunked: no Content-Length, the body in two chunks.
        const send = (body: string) =>
          sendExact(running().baseUrl, {
            headers: JSON_TYPE,
            body: chunked ? [body.slice(0, 10), body.slice(10)] : body,
            chunked,
          });
        const exact = await send(pingOf(1000));
        expect(exact.status).toBe(200);
        expect(JSON.parse(exact.text)).toMatchObject({ id: 1, result: {} });

        const over = await send(pingOf(1001));
        expect(over.status).toBe(413);
        expect(over.header('connection')).toBe('close');
        expect(JSON.parse(over.text)).toEqual({
          type: 'about:blank',
          title: 'Content Too Large',
          status: 413,
          detail: 'The body exceeds 1000 bytes.',
        });
      },
    );

    it('answers 413 from a Content-Length over the limit, without waiting for the body', async () => {
      const reply = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${running().baseUrl}/mcp`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'content-length': 2000,
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', reject);
        // Ten bytes of the two thousand announced; the rest never comes.
        req.write('{"jsonrpc"');
      });
      expect(reply).toBe(413);
    });

    it('answers 415, not 413, to a large body that is not JSON', async () => {
      const reply = await sendExact(running().baseUrl, {
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(2000),
      });
      expect(reply.status).toBe(415);
    });
  },
);

describe('MCP HTTP behind a body parser that runs before Nest', () => {
  /** The app on an Express instance with `first` in front of everything. */
  async function behind(first: RequestHandler): Promise<RunningApp> {
    @Module({ imports: [McpModule.forRoot({ serverName: 'behind' })] })
    class BehindModule {}
    const server = express();
    server.use(first);
    return startApp(BehindModule, { adapter: new ExpressAdapter(server) });
  }

  const PING = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });

  it("answers from the parser's req.body (express.json())", async () => {
    const running = await behind(express.json());
    try {
      const reply = await sendExact(running.baseUrl, {
        headers: JSON_TYPE,
        body: PING,
      });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: {},
      });
    } finally {
      await running.close();
    }
  });

  it('answers -32700 when the body was read but left unparsed', async () => {
    const running = await behind((req, _res, next) => {
      req.resume();
      req.once('end', () => next());
    });
    try {
      const reply = await sendExact(running.baseUrl, {
        headers: JSON_TYPE,
        body: PING,
      });
      expect(JSON.parse(reply.text)).toMatchObject({
        id: null,
        error: { code: -32700 },
      });
    } finally {
      await running.close();
    }
  });
});

@Injectable()
class NothingOperations {
  @Operation({ id: 'nothing.read', readOnly: true })
  read(): { ok: true } {
    return { ok: true };
  }
}

function dispatcherWith(
  options: Parameters<typeof McpModule.forRoot>[0],
): Promise<TestingModule> {
  @Module({
    imports: [McpModule.forRoot(options)],
    providers: [NothingOperations],
  })
  class RulesModule {}
  return Test.createTestingModule({ imports: [RulesModule] })
    .compile()
    .then(async (moduleRef) => {
      await moduleRef.init();
      moduleRef.get(McpToolCatalogue, { strict: false }).prepare();
      return moduleRef;
    });
}

/** One message through the real dispatcher, as a carrier would write its answer. */
async function dispatch(
  moduleRef: TestingModule,
  message: unknown,
): Promise<RpcBody> {
  const answer = await moduleRef
    .get(McpProtocol, { strict: false })
    .dispatch(message, { headers: {} });
  return JSON.parse(JSON.stringify(answer)) as RpcBody;
}

describe('MCP dispatcher rules', () => {
  it('keeps cacheTtl: 0 (do not cache) in server/discover and tools/list, not the default', async () => {
    const moduleRef = await dispatcherWith({ cacheTtl: 0 });
    try {
      for (const method of ['server/discover', 'tools/list']) {
        const answer = await dispatch(moduleRef, modernRequest(1, method));
        expect(answer.result, method).toMatchObject({ ttlMs: 0 });
      }
    } finally {
      await moduleRef.close();
    }
  });

  it(`answers initialize for ${MODERN_VERSION}, a revision without initialize, with ${LATEST_PROTOCOL_VERSION}`, async () => {
    const moduleRef = await dispatcherWith({});
    try {
      const answer = await dispatch(moduleRef, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: MODERN_VERSION, capabilities: {} },
      });
      expect(answer.result).toMatchObject({
        protocolVersion: LATEST_PROTOCOL_VERSION,
      });
      expect(LATEST_PROTOCOL_VERSION).not.toBe(MODERN_VERSION);
    } finally {
      await moduleRef.close();
    }
  });
});
