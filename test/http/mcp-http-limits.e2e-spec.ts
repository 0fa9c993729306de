import { Injectable, Module } from '@nestjs/common';
import { McpModule, McpServerLifecycleModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { OperationInvoker } from '@nestops/operations/internal';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RpcBody } from '../support/json-rpc-shapes';
import { JSON_TYPE, requestBytes, mcpHttp } from '../support/mcp-http';
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

/** `continue.echo` (tool `continue_echo`): counts the calls that reach it. */
@Injectable()
class ContinueEchoService {
  calls = 0;

  @Operation({
    id: 'continue.echo',
    description: 'Counts its calls.',
    readOnly: true,
  })
  echo(): { calls: number } {
    this.calls += 1;
    return { calls: this.calls };
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'continue' })],
  providers: [ContinueEchoService],
})
class ContinueEchoModule {}

/** A `continue_echo` call padded to `bytes` of JSON. */
function echoCall(bytes: number): string {
  const build = (pad: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'continue_echo', arguments: {}, _pad: pad },
    });
  return build('x'.repeat(Math.max(0, bytes - build('').length)));
}

/** What a client with `Expect: 100-continue` saw: a `100` or not, then the answer. */
interface ExpectOutcome {
  readonly continued: boolean;
  readonly status: number;
  readonly connection: string | undefined;
  readonly text: string;
}

/** A POST with `Expect: 100-continue` through node:http; the body goes only after a `100`. */
function postExpecting(
  baseUrl: string,
  path: string,
  body: string,
): Promise<ExpectOutcome> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...JSON_TYPE,
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            continued,
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            text,
          }),
        );
      },
    );
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/**
 * The first thing a client with `Expect: 100-continue` and a JSON body of
 * `length` bytes hears: `continue`, or the status of an answer without it.
 */
function firstHeard(
  baseUrl: string,
  path: string,
  length: number,
): Promise<'continue' | number> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, {
      method: 'POST',
      agent: false,
      headers: {
        ...JSON_TYPE,
        'content-length': length,
        expect: '100-continue',
      },
    });
    req.on('continue', () => {
      resolve('continue');
      req.destroy();
    });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** curl's status line for a POST of the file `file`, with `Expect` as curl decides or as given. */
function curlPost(
  url: string,
  file: string,
  expect: 'auto' | 'none',
): Promise<{ code: number; out: string }> {
  const args = [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code} %{response_code}',
    '--expect100-timeout',
    '5',
    '-H',
    'Content-Type: application/json',
    ...(expect === 'none' ? ['-H', 'Expect:'] : []),
    '--data-binary',
    `@${file}`,
    url,
  ];
  return new Promise((resolve) => {
    execFile('curl', args, (error, stdout) =>
      resolve({
        code: error ? Number((error as { code?: number }).code ?? -1) : 0,
        out: stdout,
      }),
    );
  });
}

const THREE_MIB = 3 * 1024 * 1024;
/** curl on this machine: its tests run only with it. */
const HAS_CURL = spawnSync('curl', ['--version']).status === 0;

/**
 * Writes `bytes` whole on a new connection, 64 KiB at a time as a client
 * on a real network does, without waiting for an early answer, and reads
 * what comes until the connection ends; `error`: what cut it (EPIPE,
 * ECONNRESET), which makes curl give up before it reads the answer.
 */
function sentWhole(
  baseUrl: string,
  bytes: string,
): Promise<{ text: string; error?: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    // Half open, as curl is: the server's FIN does not stop the sending.
    const socket = connect({
      port: Number(port),
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    let text = '';
    let error: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (cut: NodeJS.ErrnoException) => (error = cut.code));
    socket.on('close', () => resolve({ text, error }));
    void (async () => {
      const whole = Buffer.from(bytes, 'latin1');
      for (let at = 0; at < whole.length && !error; at += 65_536) {
        await new Promise((written) =>
          socket.write(whole.subarray(at, at + 65_536), written),
        );
        await new Promise((later) => setTimeout(later, 2));
      }
      socket.end();
    })();
  });
}

describe.each(HTTP_ADAPTERS)(
  'MCP HTTP body over maxBodySize (1 MiB) on %s: the client reads the 413',
  (on) => {
    const running = useApp(() => startApp(ContinueEchoModule, { on }));
    const calls = () => running().app.get(ContinueEchoService).calls;

    it('with Expect: 100-continue, 3 MiB: 413 and Connection: close before any 100, nothing runs', async () => {
      const before = calls();
      const outcome = await postExpecting(
        running().baseUrl,
        '/mcp',
        echoCall(THREE_MIB),
      );
      expect(outcome).toMatchObject({
        continued: false,
        status: 413,
        connection: 'close',
      });
      expect(JSON.parse(outcome.text)).toMatchObject({
        status: 413,
        title: 'Content Too Large',
      });
      expect(calls()).toBe(before);
    });

    it('with Expect: 100-continue under the limit: 100, then the answer', async () => {
      const before = calls();
      const outcome = await postExpecting(
        running().baseUrl,
        '/mcp',
        echoCall(1000),
      );
      expect(outcome.continued).toBe(true);
      expect(outcome.status).toBe(200);
      expect(JSON.parse(outcome.text)).toMatchObject({
        id: 1,
        result: { structuredContent: { calls: before + 1 } },
      });
    });

    it("another path with Expect: 100-continue keeps Node's default (100, then the app's answer)", async () => {
      const outcome = await postExpecting(
        running().baseUrl,
        '/elsewhere',
        echoCall(1000),
      );
      expect(outcome.continued).toBe(true);
      expect(outcome.status).toBe(404);
      // Over the limit too: Node's 100 first, whatever the app answers then.
      expect(await firstHeard(running().baseUrl, '/elsewhere', THREE_MIB)).toBe(
        'continue',
      );
      expect(await firstHeard(running().baseUrl, '/mcp/', THREE_MIB)).toBe(
        'continue',
      );
    });

    it('without Expect, 3 MiB on a raw socket, six times over: sent whole without a reset, the 413 read, nothing runs', async () => {
      const before = calls();
      const body = echoCall(THREE_MIB);
      const bytes =
        'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const { text, error } = await sentWhole(running().baseUrl, bytes);
        expect(error).toBeUndefined();
        expect(text).toMatch(/^HTTP\/1\.1 413 /);
        expect(text).toMatch(/\r\nconnection: close\r\n/i);
      }
      expect(calls()).toBe(before);
    });

    describe.skipIf(!HAS_CURL)('with curl', () => {
      let dir: string;
      let file: string;
      beforeAll(async () => {
        dir = await mkdtemp(join(tmpdir(), 'mcp-continue-'));
        file = join(dir, 'body.json');
        await writeFile(file, echoCall(THREE_MIB));
      });
      afterAll(() => rm(dir, { recursive: true, force: true }));

      it.each(['auto', 'none'] as const)(
        'a 3 MiB body (Expect: %s), six times over: curl reads the 413 and exits 0',
        async (expect_) => {
          for (let attempt = 0; attempt < 6; attempt += 1) {
            const result = await curlPost(
              `${running().baseUrl}/mcp`,
              file,
              expect_,
            );
            expect(result).toEqual({ code: 0, out: '413 413' });
          }
        },
      );
    });
  },
);
