import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { PassThrough } from 'node:stream';
import type { McpCallerContext } from '../../protocol/mcp-caller.context.js';
import { MCP_SETTINGS, type McpSettings } from '../../options/mcp-settings.js';
import { DEFAULT_MAX_BODY_SIZE } from '../../mcp.constants.js';
import { McpProtocol } from '../../protocol/mcp-protocol.js';
import { McpModule } from '../../mcp.module.js';
import { answerText } from '../../protocol/answer-text.js';
import { McpToolCatalogue } from '../../tools/mcp-tool.catalogue.js';
import { McpStdioSession } from './mcp-stdio.session.js';
import type { McpStdioServer } from './stdio-options.js';
import { asciiJson } from './stdio-output.js';

@Injectable()
class StartOperations {
  /** Logs at `debug`: delivered only when the session's level allows it. */
  @Operation({ input: null, id: 'start.note', readOnly: true })
  note(_input: unknown, context: InvocationContext): { noted: true } {
    context.log('debug', 'a debug note');
    return { noted: true };
  }

  /** Confirmed by the user first: asked only of a client that declared elicitation. */
  @Operation({ input: null, id: 'start.reset', confirm: true })
  reset(): { reset: true } {
    return { reset: true };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'start-spec',
      serverVersion: '1.2.3',
      instructions: 'Greets before it loads',
      cacheTtl: 5000,
      maxBodySize: 3 * 1024 * 1024,
      asking: { stateKeys: ['start-spec-state-key-0123456789abcdef'] },
    }),
  ],
  providers: [StartOperations],
})
class StartModule {}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const rpc = (id: number, method: string, params: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const GREETINGS = [
  rpc(1, 'server/discover', { _meta: META }),
  rpc(2, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'spec', version: '1' },
  }),
  rpc(3, 'initialize', {
    protocolVersion: '1999-01-01',
    capabilities: {},
    clientInfo: { name: 'spec', version: '1' },
  }),
];

/** `GREETINGS[1]` with `id`, padded to exactly `bytes` UTF-8 bytes. */
function initializeOfBytes(id: number, bytes: number): string {
  const line = (pad: string) =>
    JSON.stringify({
      ...GREETINGS[1],
      id,
      params: { ...GREETINGS[1].params, pad },
    });
  const pad = 'x'.repeat(bytes - Buffer.byteLength(line('')));
  expect(Buffer.byteLength(line(pad))).toBe(bytes);
  return line(pad);
}

/** Lets the session take what it was given (a few turns of the event loop). */
const turns = async () => {
  for (let turn = 0; turn < 5; turn++) {
    await new Promise((settle) => setImmediate(settle));
  }
};

/** A session started before its server, which the test hands over (or fails) when it wants. */
class StartingHarness {
  readonly input = new PassThrough();
  readonly lines: string[] = [];
  readonly done: Promise<void>;
  loads = 0;
  private give!: (server: McpStdioServer) => void;
  private refuse!: (error: Error) => void;
  private readonly waiters: Array<() => void> = [];

  constructor(settings: McpSettings) {
    const server = new Promise<McpStdioServer>((give, refuse) => {
      this.give = give;
      this.refuse = refuse;
    });
    const session = McpStdioSession.starting(
      () => {
        this.loads += 1;
        return server;
      },
      {
        input: this.input,
        output: {
          write: (text: string) => {
            this.lines.push(...text.split('\n').filter(Boolean));
            this.waiters.splice(0).forEach((wake) => wake());
          },
        },
        greeting: settings,
      },
    );
    this.done = session.run();
  }

  send(...messages: object[]): void {
    this.input.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  }

  /** The headers of every message the server was given, in order. */
  readonly served: McpCallerContext['headers'][] = [];
  /** The version the session had agreed at each message, in order. */
  readonly versions: (string | undefined)[] = [];

  serve(moduleRef: TestingModule, settings: McpSettings): void {
    const protocol = moduleRef.get(McpProtocol);
    // The real protocol layer, noting the caller of each message it serves.
    const noting = Object.create(protocol) as McpProtocol;
    noting.receive = (message, transport, session) => {
      this.served.push(transport.caller.headers);
      this.versions.push(session?.protocolVersion);
      return protocol.receive(message, transport, session);
    };
    this.give({
      protocol: noting,
      caller: { headers: {} },
      maxMessageSize: settings.maxBodySize,
    });
  }

  fail(error: Error): void {
    this.refuse(error);
  }

  async until(count: number): Promise<void> {
    while (this.lines.length < count) {
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  /** The line answering `id`. */
  line(id: number): string {
    const found = this.lines.find(
      (line) => (JSON.parse(line) as { id?: unknown }).id === id,
    );
    if (found === undefined) {
      throw new Error(`no answer to ${id} in ${this.lines.join('\n')}`);
    }
    return found;
  }
}

describe('McpStdioSession.starting (answers before the app has loaded)', () => {
  let moduleRef: TestingModule;
  let settings: McpSettings;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [StartModule],
    }).compile();
    await moduleRef.init();
    moduleRef.get(McpToolCatalogue).prepare();
    settings = moduleRef.get<McpSettings>(MCP_SETTINGS);
  });

  afterAll(() => moduleRef.close());

  it('answers initialize and server/discover without the server, byte for byte as the dispatcher does', async () => {
    const session = new StartingHarness(settings);
    session.send(...GREETINGS);
    await session.until(GREETINGS.length);
    // Loading the app holds the event loop: it starts once the answers are out.
    expect(session.loads).toBe(0);
    await new Promise((settle) => setImmediate(settle));
    expect(session.loads).toBe(1);
    const protocol = moduleRef.get(McpProtocol);
    for (const message of GREETINGS) {
      const full = await protocol.dispatch(message, { headers: {} });
      expect(session.line(message.id)).toBe(
        asciiJson(answerText(full as object)),
      );
    }
    session.serve(moduleRef, settings);
    session.input.end();
    await session.done;
  });

  it('holds every other message until the server is there, then serves them all in order', async () => {
    const session = new StartingHarness(settings);
    session.send(
      GREETINGS[1],
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      // Before the call: the level its log message needs.
      rpc(4, 'logging/setLevel', { level: 'debug' }),
      rpc(5, 'tools/list'),
      rpc(6, 'ping'),
      rpc(7, 'tools/call', { name: 'start_note', arguments: {} }),
      GREETINGS[0],
    );
    await session.until(1);
    // The greeting is out; the rest waits, and the server is loading.
    await new Promise((settle) => setImmediate(settle));
    expect(session.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
    expect(session.loads).toBe(1);
    session.serve(moduleRef, settings);
    await session.until(7);
    session.input.end();
    await session.done;
    const messages = session.lines.map((line) => JSON.parse(line));
    expect(messages.map((m) => m.id ?? m.method).sort()).toEqual(
      [1, 2, 4, 5, 6, 7, 'notifications/message'].sort(),
    );
    expect(
      (JSON.parse(session.line(5)).result.tools as { name: string }[]).map(
        (tool) => tool.name,
      ),
    ).toEqual(['start_note', 'start_reset']);
    expect(JSON.parse(session.line(7)).result.structuredContent).toEqual({
      noted: true,
    });
    // What the early initialize agreed is the session's version from then on.
    expect(session.served.length).toBeGreaterThan(0);
    for (const version of session.versions) {
      expect(version).toBe('2025-06-18');
    }
    // The level was set before the call ran: its debug note came through.
    const note = messages.findIndex(
      (m) => m.method === 'notifications/message',
    );
    expect(messages[note].params.data).toBe('a debug note');
    expect(note).toBeLessThan(messages.findIndex((m) => m.id === 7));
  });

  it.each([
    [{}, 'SECURITY_CONFIRMATION_001', []],
    [{ elicitation: {} }, undefined, ['elicitation/create']],
  ])(
    'keeps what the early initialize declared (%o): what the server may ask',
    async (capabilities, code, asked) => {
      const session = new StartingHarness(settings);
      session.send(
        { ...GREETINGS[1], params: { ...GREETINGS[1].params, capabilities } },
        rpc(9, 'tools/call', { name: 'start_reset', arguments: {} }),
      );
      await session.until(1);
      session.serve(moduleRef, settings);
      await session.until(2);
      const requests = session.lines
        .map((line) => JSON.parse(line))
        .filter((message) => typeof message.method === 'string');
      expect(requests.map((message) => message.method)).toEqual(asked);
      if (code !== undefined) {
        expect(JSON.parse(session.line(9)).result.content[0].text).toMatch(
          new RegExp(`^${code}: `),
        );
      } else {
        // The user accepts: the answer is a line, and the call runs.
        session.send({
          jsonrpc: '2.0',
          id: requests[0].id,
          result: { action: 'accept' },
        });
        await session.until(3);
        expect(JSON.parse(session.line(9)).result.structuredContent).toEqual({
          reset: true,
        });
      }
      session.input.end();
      await session.done;
    },
  );

  it('takes a line longer than the default limit once the server says its own', async () => {
    const session = new StartingHarness(settings);
    const text = 'x'.repeat(2 * 1024 * 1024);
    session.send(
      rpc(8, 'tools/call', {
        name: 'start_note',
        arguments: {},
        _meta: { text },
      }),
    );
    // Nothing is refused while the server loads.
    await new Promise((settle) => setImmediate(settle));
    expect(session.lines).toEqual([]);
    expect(session.loads).toBe(1);
    session.serve(moduleRef, settings);
    await session.until(1);
    expect(JSON.parse(session.line(8)).result.structuredContent).toEqual({
      noted: true,
    });
    session.input.end();
    await session.done;
  });

  it('answers a greeting of exactly the default limit itself, where it starts in a chunk after another line or goes on in the next', async () => {
    const session = new StartingHarness(settings);
    const whole = initializeOfBytes(21, DEFAULT_MAX_BODY_SIZE);
    const split = initializeOfBytes(22, DEFAULT_MAX_BODY_SIZE);
    const half = split.length / 2;
    // Each chunk begins with the end of a line: the limit counts from the line's start.
    session.input.write(
      `${JSON.stringify(GREETINGS[1])}\n${whole}\n${split.slice(0, half)}`,
    );
    await turns();
    session.input.write(`${split.slice(half)}\n`);
    await turns();
    // Answered before the server is there: none of them waited for it.
    expect(session.lines.map((line) => JSON.parse(line).id)).toEqual([
      2, 21, 22,
    ]);
    expect(session.served).toEqual([]);
    session.serve(moduleRef, settings);
    session.input.end();
    await session.done;
  });

  it('takes a line one byte over the default limit, in two chunks each under it, once the server says its own', async () => {
    const session = new StartingHarness(settings);
    const line = initializeOfBytes(23, DEFAULT_MAX_BODY_SIZE + 1);
    session.input.write(line.slice(0, 1000));
    await turns();
    session.input.write(`${line.slice(1000)}\n`);
    await turns();
    expect(session.lines).toEqual([]);
    session.serve(moduleRef, settings);
    await session.until(1);
    expect(JSON.parse(session.line(23)).result.serverInfo.name).toBe(
      'start-spec',
    );
    session.input.end();
    await session.done;
    // And one over the limit in a chunk without its newline.
    const unended = new StartingHarness(settings);
    unended.input.write(initializeOfBytes(24, DEFAULT_MAX_BODY_SIZE + 10));
    await turns();
    unended.input.write('\n');
    await turns();
    expect(unended.lines).toEqual([]);
    unended.serve(moduleRef, settings);
    await unended.until(1);
    expect(JSON.parse(unended.line(24)).result.serverInfo.name).toBe(
      'start-spec',
    );
    unended.input.end();
    await unended.done;
  });
  it('keeps the agreed version through answers that name none, errors included', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1]);
    await session.until(1);
    session.serve(moduleRef, settings);
    const messages = [
      rpc(30, 'nosuch/method'),
      rpc(31, 'ping'),
      rpc(32, 'tools/list'),
    ];
    for (const [index, message] of messages.entries()) {
      session.send(message);
      await session.until(index + 2);
    }
    session.input.end();
    await session.done;
    expect(JSON.parse(session.line(30)).error.code).toBe(-32601);
    expect(session.versions).toEqual([
      '2025-06-18',
      '2025-06-18',
      '2025-06-18',
    ]);
  });

  it('gives the server no version and no header when no greeting came before it', async () => {
    const session = new StartingHarness(settings);
    session.send(rpc(25, 'ping'));
    await turns();
    session.serve(moduleRef, settings);
    await session.until(1);
    session.input.end();
    await session.done;
    expect(session.served).toHaveLength(1);
    expect(Object.keys(session.served[0])).toEqual([]);
    expect(session.versions).toEqual([undefined]);
  });

  it('fails run() at once when the server failed before it was called', async () => {
    const session = McpStdioSession.starting(
      () => Promise.reject(new Error('no such module')),
      { input: new PassThrough(), output: { write: () => true } },
    );
    session.startServer();
    await turns();
    await expect(session.run()).rejects.toThrow('no such module');
  });

  it('serves the request it held once the server is there, and the input that ended meanwhile', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1], rpc(10, 'tools/list'), rpc(11, 'ping'));
    await session.until(1);
    // The input ends while the server loads: its end waits for it too.
    session.input.end();
    await new Promise((settle) => setImmediate(settle));
    expect(session.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
    session.serve(moduleRef, settings);
    await session.done;
    expect(
      (JSON.parse(session.line(10)).result.tools as { name: string }[]).map(
        (tool) => tool.name,
      ),
    ).toEqual(['start_note', 'start_reset']);
    expect(JSON.parse(session.line(11))).toEqual({
      jsonrpc: '2.0',
      id: 11,
      result: {},
    });
  });

  it('ends only once the server is there when the input ends while it loads, serving its unterminated last line', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1]);
    await session.until(1);
    session.input.end(JSON.stringify(rpc(12, 'ping')));
    let ended = false;
    void session.done.then(() => {
      ended = true;
    });
    await new Promise((settle) => setTimeout(settle, 20));
    expect(ended).toBe(false);
    expect(session.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
    session.serve(moduleRef, settings);
    await session.done;
    expect(JSON.parse(session.line(12))).toEqual({
      jsonrpc: '2.0',
      id: 12,
      result: {},
    });
  });

  it('writes nothing for a held notification when the server does not load', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1], {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    await session.until(1);
    session.fail(new Error('no such module'));
    await expect(session.done).rejects.toThrow('no such module');
    expect(session.lines.map((line) => JSON.parse(line).id)).toEqual([2]);
  });

  it('answers a waiting message it refuses with its refusal when the server does not load', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1], { jsonrpc: '2.0', id: 8, method: 42 });
    await session.until(1);
    session.fail(new Error('no such module'));
    await expect(session.done).rejects.toThrow('no such module');
    expect(session.lines).toHaveLength(2);
    expect(JSON.parse(session.line(8))).toMatchObject({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32600 },
    });
  });

  it('answers the waiting request with -32603 and fails when the server does not load', async () => {
    const session = new StartingHarness(settings);
    session.send(GREETINGS[1], rpc(9, 'tools/list'));
    await session.until(1);
    session.fail(new Error('no such module'));
    await expect(session.done).rejects.toThrow('no such module');
    expect(JSON.parse(session.line(2)).result.serverInfo.name).toBe(
      'start-spec',
    );
    expect(JSON.parse(session.line(9))).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: {
        code: -32603,
        message: 'The server did not start: no such module',
      },
    });
  });
});
