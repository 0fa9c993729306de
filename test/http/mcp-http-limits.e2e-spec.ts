import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpServerLifecycleModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { OperationInvoker } from '@nestops/operations/internal';
import { connect, type Socket } from 'node:net';
import type { RpcBody } from '../support/json-rpc-shapes';
import { requestBytes, mcpHttp } from '../support/mcp-http';
import { startSampleApp } from '../support/sample-app';
import {
  HTTP_ADAPTERS,
  type NestHttpApplication,
  startApp,
  type RunningApp,
  useApp,
} from '../support/start-app';

/** Half a megabyte of text: each answer is about a megabyte. */
const BULK = 'x'.repeat(512 * 1024);

/** `bulk.read` (tool `bulk_read`): a large answer. */
@Injectable()
class BulkService {
  @Operation({
    id: 'bulk.read',
    description: 'A large answer.',
    readOnly: true,
  })
  read(): { text: string } {
    return { text: BULK };
  }
}

/** The same app with McpServerLifecycleModule, whose back-pressure holds a pipelining client. */
@Module({
  imports: [
    McpModule.forRoot({ serverName: 'limits' }),
    McpServerLifecycleModule.forRoot(),
  ],
  providers: [BulkService],
})
class PacedBulkModule {}

function expectInvalidRequest(body: RpcBody): void {
  expect(body.id).toBeNull();
  expect(body).not.toHaveProperty('result');
  expect(body.error?.code).toBe(-32600);
  expect(body.error?.data.code).toBe('PROTOCOLS_VALIDATION_001');
}

describe.each(HTTP_ADAPTERS)('MCP HTTP ids, sample app on %s', (on) => {
  let running: RunningApp<NestHttpApplication>;
  let baseUrl: string;

  beforeAll(async () => {
    running = await startSampleApp('sqlite', { on });
    baseUrl = running.baseUrl;
  });
  afterAll(() => running?.close());

  describe('JSON-RPC ids are echoed exactly or refused', () => {
    it.each([
      ['beyond the double range', '1e400'],
      ['-1e400', '-1e400'],
      ['an unsafe integer', '12345678901234567890'],
      ['2^53', '9007199254740992'],
      ['-(2^53)', '-9007199254740992'],
      ['a fraction', '1.5'],
      ['an exponent that yields a fraction', '15e-1'],
    ])(
      'a numeric id that is %s (%s): 400, -32600 with id null',
      async (_name, id) => {
        const response = await mcpHttp(baseUrl).post(
          `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
        );
        expect(response.status).toBe(400);
        expectInvalidRequest(JSON.parse(response.text) as RpcBody);
      },
    );

    it.each([
      ['the largest safe integer', '9007199254740991'],
      ['the smallest safe integer', '-9007199254740991'],
      ['zero', '0'],
      ['a long string', '"12345678901234567890"'],
    ])('%s is echoed exactly', async (_name, id) => {
      const response = await mcpHttp(baseUrl).post(
        `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
      );
      expect(response.status).toBe(200);
      expect(response.text).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
    });

    it('an unsafe id in a 2025-03-26 batch: its own -32600 entry with id null, the others answered', async () => {
      const response = await mcpHttp(baseUrl).post(
        '[{"jsonrpc":"2.0","id":1e400,"method":"ping"},' +
          '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"},' +
          '{"jsonrpc":"2.0","id":0.5,"method":"ping"},' +
          '{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}]',
        { 'mcp-protocol-version': '2025-03-26' },
      );
      expect(response.status).toBe(200);
      const body = JSON.parse(response.text) as RpcBody[];
      expect(body).toHaveLength(4);
      body.slice(0, 3).forEach(expectInvalidRequest);
      expect(response.text).toMatch(
        /\{"jsonrpc":"2\.0","id":9007199254740991,"result":\{\}\}\]$/,
      );
    });
  });
});

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP back-pressure (McpServerLifecycleModule) on %s: a client that pipelines and does not read',
  (on) => {
    const PIPELINED = 40;
    const running = useApp(() =>
      startApp(PacedBulkModule, { logger: ['error', 'warn'], on }),
    );
    afterEach(() => {
      vi.restoreAllMocks();
    });

    function pipelinedReads(count: number): string {
      return requestBytes({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'bulk_read', arguments: {} },
      }).repeat(count);
    }

    /** Resolves once `read()` has not changed for `quietMs`. */
    async function settled(read: () => number, quietMs = 500): Promise<number> {
      let last = -1;
      for (;;) {
        const now = read();
        if (now === last) {
          return now;
        }
        last = now;
        await new Promise((resolve) => setTimeout(resolve, quietMs));
      }
    }

    /** Counts `200` status lines read from the socket until `expected` or its end. */
    function countAnswers(socket: Socket, expected: number): Promise<number> {
      return new Promise((resolve, reject) => {
        let seen = 0;
        let tail = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => {
          const text = tail + chunk;
          seen += text.match(/HTTP\/1\.1 200 OK\r\n/g)?.length ?? 0;
          tail = text.slice(-16);
          if (seen >= expected) {
            resolve(seen);
          }
        });
        socket.once('error', reject);
        socket.once('close', () => resolve(seen));
      });
    }

    it('handles its requests only as it reads the answers, then answers them all', async () => {
      // Each tools/call served is one invocation.
      const dispatch = vi.spyOn(running().app.get(OperationInvoker), 'invoke');
      const socket = connect(
        Number(new URL(running().baseUrl).port),
        '127.0.0.1',
      );
      socket.pause();
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('error', reject);
        });
        socket.write(pipelinedReads(PIPELINED));

        // Each answer is ~1 MB: what the kernel's socket buffers take aside
        // (a few MB), the server holds one answer and handles nothing more.
        const handled = await settled(() => dispatch.mock.calls.length);
        expect(handled).toBeGreaterThan(0);
        expect(handled).toBeLessThan(PIPELINED / 2);

        const answered = countAnswers(socket, PIPELINED);
        socket.resume();
        expect(await answered).toBe(PIPELINED);
        expect(dispatch).toHaveBeenCalledTimes(PIPELINED);
      } finally {
        socket.destroy();
      }
    });
  },
);
