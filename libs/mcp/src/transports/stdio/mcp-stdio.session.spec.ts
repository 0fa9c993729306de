import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { callHooksOf } from '@nestops/operations/internal';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { PassThrough } from 'node:stream';
import { McpProtocol } from '../../protocol/mcp-protocol.js';
import { McpModule } from '../../mcp.module.js';
import { McpToolCatalogue } from '../../tools/mcp-tool.catalogue.js';
import { McpStdioSession } from './mcp-stdio.session.js';

class WatchDto {
  @IsOptional()
  @IsInt()
  steps?: number;
}

class SayDto {
  @IsString()
  text: string;
}

/** `echo.say` answers its text; `gate.hold` waits until the test opens the gate. */
@Injectable()
class SessionOperations {
  started = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly arrivals: Array<() => void> = [];

  @Operation({ id: 'echo.say', readOnly: true })
  say(input: SayDto): { text: string } {
    return { text: input.text };
  }

  /** Two messages ahead of its answer, and one after it (dropped). */
  @Operation({ input: null, id: 'echo.report', readOnly: true })
  report(_input: unknown, context: InvocationContext): { reported: 2 } {
    const responseStream = callHooksOf(context)!.responseStream!;
    responseStream.send({ jsonrpc: '2.0', method: 'notes/first' });
    responseStream.send({ jsonrpc: '2.0', method: 'notes/\u4e2d\u00e9' });
    setImmediate(() => {
      this.lateOpen = responseStream.open;
      responseStream.send({ jsonrpc: '2.0', method: 'notes/late' });
    });
    return { reported: 2 };
  }

  lateOpen?: boolean;

  /** When the last `job.watch` call's signal aborted. */
  watchAborted?: number;

  /** Reports progress every 5 ms until its signal aborts or `steps` are done. */
  @Operation({ id: 'job.watch', readOnly: true })
  async watch(
    input: WatchDto,
    context: InvocationContext,
  ): Promise<{ steps: number }> {
    const steps = input.steps ?? 1000;
    context.log('notice', 'watching', { steps });
    context.signal.addEventListener('abort', () => {
      this.watchAborted = Date.now();
    });
    for (let step = 1; step <= steps; step += 1) {
      context.signal.throwIfAborted();
      context.reportProgress(step, steps);
      await new Promise((settle) => setTimeout(settle, 5));
    }
    return { steps };
  }

  @Operation({ id: 'gate.hold', readOnly: true })
  async hold(): Promise<{ held: true }> {
    this.started += 1;
    this.arrivals.splice(0).forEach((arrived) => arrived());
    await new Promise<void>((open) => this.waiting.push(open));
    return { held: true };
  }

  async untilStarted(count: number): Promise<void> {
    while (this.started < count) {
      await new Promise<void>((arrived) => this.arrivals.push(arrived));
    }
  }

  open(): void {
    this.waiting.splice(0).forEach((open) => open());
  }

  /** Lets the longest-waiting call finish. */
  openOne(): void {
    this.waiting.shift()?.();
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'stdio-spec' })],
  providers: [SessionOperations],
})
class SessionModule {}

type Answer = {
  id: unknown;
  result?: { structuredContent?: { text?: string }; isError?: boolean };
  error?: { code: number; message: string };
};

/** A session over an in-memory stdin and stdout, on the real dispatcher. */
class Harness {
  readonly input = new PassThrough();
  readonly lines: string[] = [];
  /** Every text the session wrote, as it wrote it. */
  readonly writes: string[] = [];
  readonly done: Promise<void>;
  private readonly waiters: Array<() => void> = [];

  constructor(
    moduleRef: TestingModule,
    maxMessageSize: number,
    maxInFlight?: number,
  ) {
    const session = new McpStdioSession(moduleRef.get(McpProtocol), {
      input: this.input,
      output: {
        write: (text: string) => {
          this.writes.push(text);
          this.lines.push(...text.split('\n').filter(Boolean));
          this.waiters.splice(0).forEach((wake) => wake());
        },
      },
      caller: { headers: {} },
      maxMessageSize,
      maxInFlight,
    });
    this.done = session.run();
  }

  async answer(id: unknown): Promise<Answer> {
    for (;;) {
      const found = this.lines
        .map((line) => JSON.parse(line) as Answer)
        .find((answer) => answer.id === id);
      if (found) {
        return found;
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  /** Ends stdin; resolves once every call under way has been answered. */
  async close(): Promise<void> {
    this.input.end();
    await this.done;
  }

  /** Every answer written, by id (`null` for refused lines, in order). */
  answers(): Answer[] {
    return this.lines.map((line) => JSON.parse(line) as Answer);
  }
}

const sayLine = (id: number, text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo_say', arguments: { text } },
  });

/** A `sayLine` of exactly `bytes` UTF-8 bytes, padded with `unit` (and ASCII to fill). */
function lineOfBytes(id: number, bytes: number, unit: string): string {
  let text = '';
  while (Buffer.byteLength(sayLine(id, text + unit)) <= bytes) {
    text += unit;
  }
  while (Buffer.byteLength(sayLine(id, text)) < bytes) {
    text += 'x';
  }
  const line = sayLine(id, text);
  expect(Buffer.byteLength(line)).toBe(bytes);
  return line;
}

describe('McpStdioSession', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [SessionModule],
    }).compile();
    await moduleRef.init();
    moduleRef.get(McpToolCatalogue).prepare();
  });

  afterAll(() => moduleRef?.close());

  describe('the line limit, in UTF-8 bytes', () => {
    const LIMIT = 3_000;

    it('answers a line of exactly maxMessageSize bytes', async () => {
      const session = new Harness(moduleRef, LIMIT);
      session.input.write(`${lineOfBytes(1, LIMIT, 'x')}\n`);
      session.input.write(`${lineOfBytes(2, LIMIT, '中')}\n`);
      // Two in one chunk: the second is counted from its own start.
      session.input.write(
        `${lineOfBytes(3, LIMIT, 'x')}\n${lineOfBytes(4, LIMIT, 'x')}\n`,
      );
      await session.close();

      const answers = session.answers();
      expect(answers.filter((answer) => answer.error)).toEqual([]);
      expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4]);
      expect(
        answers.find((answer) => answer.id === 2)?.result?.structuredContent
          ?.text,
      ).toMatch(/^中+x*$/);
    });

    it('refuses a line one byte longer, and one whose UTF-16 length is within the limit but not its bytes', async () => {
      const session = new Harness(moduleRef, LIMIT);
      const cjk = lineOfBytes(2, LIMIT + 1, '中');
      expect(cjk.length).toBeLessThan(LIMIT / 2);
      session.input.write(`${lineOfBytes(1, LIMIT + 1, 'x')}\n`);
      session.input.write(`${cjk}\n`);
      session.input.write(`${sayLine(3, 'next')}\n`);
      await session.close();

      const answers = session.answers();
      expect(answers.filter((answer) => answer.result)).toEqual([
        expect.objectContaining({ id: 3 }),
      ]);
      const refused = answers.filter((answer) => answer.error);
      expect(refused).toEqual([
        expect.objectContaining({
          id: null,
          error: expect.objectContaining({ code: -32600 }),
        }),
        expect.objectContaining({
          id: null,
          error: expect.objectContaining({ code: -32600 }),
        }),
      ]);
      expect(refused[0].error?.message).toContain(`at most ${LIMIT} bytes`);
    });
  });

  it('decodes UTF-8 across chunks: a character split between two reads arrives whole', async () => {
    const session = new Harness(moduleRef, 10_000);
    const bytes = Buffer.from(`${sayLine(1, '中文 ok')}\n`, 'utf8');
    const middle = bytes.indexOf(Buffer.from('中', 'utf8')) + 1;
    session.input.write(bytes.subarray(0, middle));
    session.input.write(bytes.subarray(middle, middle + 3));
    session.input.write(bytes.subarray(middle + 3));

    expect((await session.answer(1)).result?.structuredContent?.text).toBe(
      '中文 ok',
    );
    await session.close();
  });

  it('writes what a call sends ahead of its answer as lines of their own, ASCII, then the answer; nothing after it', async () => {
    const session = new Harness(moduleRef, 10_000);
    session.input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_report' } })}\n`,
    );
    await session.answer(1);
    await new Promise((resolve) => setImmediate(resolve));
    await session.close();
    expect(session.lines).toEqual([
      '{"jsonrpc":"2.0","method":"notes/first"}',
      '{"jsonrpc":"2.0","method":"notes/\\u4e2d\\u00e9"}',
      expect.stringMatching(/^\{"jsonrpc":"2.0","id":1,"result":/),
    ]);
    expect(moduleRef.get(SessionOperations).lateOpen).toBe(false);
  });

  it('answers a malformed line -32700, skips blank and whitespace lines and notifications, and goes on', async () => {
    const session = new Harness(moduleRef, 10_000);
    session.input.write('{"jsonrpc":"2.0","id":1,\n');
    session.input.write('   \t\r\n\n');
    session.input.write(
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    );
    session.input.write(`${sayLine(2, 'after')}\n`);
    await session.close();
    expect(session.answers()).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32700 }),
      },
      expect.objectContaining({
        id: 2,
        result: expect.objectContaining({
          structuredContent: { text: 'after' },
        }),
      }),
    ]);
  });

  it('reads an input that emits text (an encoding set on it) as it reads bytes', async () => {
    const session = new Harness(moduleRef, 10_000);
    session.input.setEncoding('utf8');
    session.input.write(`${sayLine(1, '中文')}\n${sayLine(2, 'two')}`);
    await session.close();
    expect(
      session.answers().map((answer) => answer.result?.structuredContent),
    ).toEqual([{ text: '中文' }, { text: 'two' }]);
    await new Promise((resolve) => setImmediate(resolve));
    // Each write carries whole lines, and there is no empty one.
    expect(session.writes.every((text) => /^(.+\n)+$/.test(text))).toBe(true);
  });

  it('never waits on an output that says it is full but has no drain event', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const session = new McpStdioSession(moduleRef.get(McpProtocol), {
      input,
      output: {
        write: (text: string) => {
          lines.push(...text.split('\n').filter(Boolean));
          return false;
        },
      },
      caller: { headers: {} },
      maxMessageSize: 10_000,
    });
    const done = session.run();
    input.write(`${sayLine(1, 'one')}\n`);
    while (lines.length === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    input.end(`${sayLine(2, 'two')}\n`);
    await done;
    expect(lines.map((line) => (JSON.parse(line) as Answer).id)).toEqual([
      1, 2,
    ]);
  });

  it('rejects run() when its input fails', async () => {
    const session = new Harness(moduleRef, 10_000);
    session.input.destroy(new Error('stdin broke'));
    await expect(session.done).rejects.toThrow('stdin broke');
  });

  it('takes no line beyond maxInFlight calls, even lines it already read, and one more as each finishes', async () => {
    const operations = moduleRef.get(SessionOperations);
    operations.started = 0;
    const session = new Harness(moduleRef, 10_000, 2);
    const hold = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'gate_hold', arguments: {} },
      });
    // Five calls in one chunk: read at once, taken two at a time.
    session.input.write(`${[1, 2, 3, 4, 5].map(hold).join('\n')}\n`);
    await operations.untilStarted(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(operations.started).toBe(2);
    expect(session.input.isPaused()).toBe(true);

    operations.openOne();
    await session.answer(1);
    await operations.untilStarted(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(operations.started).toBe(3);

    operations.openOne();
    operations.openOne();
    await operations.untilStarted(5);
    operations.open();
    await session.close();
    expect(
      session
        .answers()
        .map((answer) => answer.id)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes no line while its output is full, and goes on once it drains', async () => {
    // A real stream nobody reads yet: its write answers false past 64 bytes.
    const output = new PassThrough({ highWaterMark: 64 });
    const input = new PassThrough();
    const session = new McpStdioSession(moduleRef.get(McpProtocol), {
      input,
      output,
      caller: { headers: {} },
      maxMessageSize: 10_000,
    });
    const done = session.run();
    const operations = moduleRef.get(SessionOperations);
    operations.started = 0;
    const turns = async () => {
      for (let turn = 0; turn < 5; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'gate_hold', arguments: {} } })}\n`,
    );
    await operations.untilStarted(1);
    input.write(`${sayLine(1, 'one')}\n${sayLine(2, 'two')}\n`);
    while (!output.writableNeedDrain) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    input.write(`${sayLine(3, 'three')}\n`);
    await turns();
    // Answers 1 and 2 fill the output: line 3 waits, unread, even once
    // the held call has finished.
    expect(input.isPaused()).toBe(true);
    expect(input.readableLength).toBeGreaterThan(0);
    operations.open();
    await turns();
    expect(input.readableLength).toBeGreaterThan(0);
    // One writer, waiting for one drain.
    expect(output.listenerCount('drain')).toBe(1);

    const written: string[] = [];
    output.on('data', (chunk: Buffer) => written.push(String(chunk)));
    input.end();
    await done;
    const ids = written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as Answer).id);
    expect(ids).toEqual([1, 2, 9, 3]);
  });

  it('stops reading while maxInFlight calls are under way, and reads on as they finish', async () => {
    const operations = moduleRef.get(SessionOperations);
    operations.started = 0;
    const session = new Harness(moduleRef, 10_000, 2);
    const hold = (id: number) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'gate_hold', arguments: {} } })}\n`;
    session.input.write(hold(1));
    session.input.write(hold(2));
    await operations.untilStarted(2);
    session.input.write(hold(3));

    expect(session.input.isPaused()).toBe(true);
    expect(session.input.readableLength).toBeGreaterThan(0);
    expect(operations.started).toBe(2);

    operations.open();
    await session.answer(1);
    await operations.untilStarted(3);
    operations.open();
    expect((await session.answer(3)).result?.structuredContent).toEqual({
      held: true,
    });
    await session.close();
  });

  describe('progress and cancellation', () => {
    const watchLine = (id: number, token: string, steps?: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'job_watch',
          arguments: steps === undefined ? {} : { steps },
          _meta: { progressToken: token },
        },
      });
    type Line = {
      id?: number;
      method?: string;
      params?: { progressToken?: string; progress?: number };
    };

    it('gives two calls under way only their own progress, each tagged with its token', async () => {
      const session = new Harness(moduleRef, 10_000);
      session.input.write(
        `${watchLine(1, 'one', 4)}\n${watchLine(2, 'two', 6)}\n`,
      );
      await session.close();

      const lines = session.lines.map((line) => JSON.parse(line) as Line);
      const progressOf = (token: string) =>
        lines
          .filter((line) => line.params?.progressToken === token)
          .map((line) => line.params?.progress);
      expect(progressOf('one')).toEqual([1, 2, 3, 4]);
      expect(progressOf('two')).toEqual([1, 2, 3, 4, 5, 6]);
      // Each call's progress comes before its own answer.
      for (const [id, token] of [
        [1, 'one'],
        [2, 'two'],
      ] as const) {
        const answerAt = lines.findIndex((line) => line.id === id);
        const lastProgress = lines.findLastIndex(
          (line) => line.params?.progressToken === token,
        );
        expect(lastProgress).toBeLessThan(answerAt);
      }
    });

    it('keeps the level logging/setLevel sets for the session: its later calls send log messages at or above it', async () => {
      const setLevel = (id: number, level: string) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'logging/setLevel',
          params: { level },
        });
      const messagesOf = async (lines: string) => {
        const session = new Harness(moduleRef, 10_000);
        session.input.write(lines);
        await session.close();
        return session.lines
          .map((line) => JSON.parse(line) as Line & { result?: unknown })
          .filter(
            (line) =>
              line.method === 'notifications/message' ||
              line.id === 1 ||
              line.id === 2,
          );
      };
      expect(
        await messagesOf(`${setLevel(1, 'info')}\n${watchLine(2, 't', 1)}\n`),
      ).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: {
            level: 'notice',
            data: { message: 'watching', data: { steps: 1 } },
          },
        },
        expect.objectContaining({ id: 2 }),
      ]);
      // Above the message's level, and in a session that set none: nothing.
      expect(
        (
          await messagesOf(
            `${setLevel(1, 'warning')}\n${watchLine(2, 't', 1)}\n`,
          )
        ).map((line) => line.method ?? line.id),
      ).toEqual([1, 2]);
      expect(
        (await messagesOf(`${watchLine(2, 't', 1)}\n`)).map(
          (line) => line.method ?? line.id,
        ),
      ).toEqual([2]);
    });

    it('cancels a request whose id an answered request used before', async () => {
      const session = new Harness(moduleRef, 10_000);
      const ops = moduleRef.get(SessionOperations);
      session.input.write(`${watchLine(7, 'first', 1)}\n`);
      expect((await session.answer(7)).result?.structuredContent).toEqual({
        steps: 1,
      });
      ops.watchAborted = undefined;
      session.input.write(`${watchLine(7, 'again')}\n`);
      await vi.waitFor(() =>
        expect(session.lines.some((line) => line.includes('"again"'))).toBe(
          true,
        ),
      );
      session.input.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } })}\n`,
      );
      await vi.waitFor(() => expect(ops.watchAborted).toBeDefined());
      await session.close();
      expect(
        session.answers().filter((answer) => answer.id === 7),
      ).toHaveLength(1);
    });

    it('aborts a call that notifications/cancelled names, and answers it no more; ignores one naming no call', async () => {
      const session = new Harness(moduleRef, 10_000);
      const ops = moduleRef.get(SessionOperations);
      ops.watchAborted = undefined;
      session.input.write(`${watchLine(7, 'seven')}\n`);
      await vi.waitFor(() =>
        expect(session.lines.some((line) => line.includes('"seven"'))).toBe(
          true,
        ),
      );
      const cancelledAt = Date.now();
      session.input.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user' } })}\n`,
      );
      session.input.write(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })}\n`,
      );
      await vi.waitFor(() => expect(ops.watchAborted).toBeDefined());
      expect(ops.watchAborted! - cancelledAt).toBeLessThan(100);

      // The session goes on serving.
      session.input.write(`${sayLine(8, 'after')}\n`);
      expect((await session.answer(8)).result?.structuredContent).toEqual({
        text: 'after',
      });
      const linesAtCancel = session.lines.length;
      await session.close();
      const lines = session.lines.map((line) => JSON.parse(line) as Line);
      expect(lines.some((line) => line.id === 7)).toBe(false);
      expect(session.lines.length).toBe(linesAtCancel);
    });
  });
});
