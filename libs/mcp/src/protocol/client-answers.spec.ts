import { Injectable, type LoggerService, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { McpModule } from '../mcp.module.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { mcpCallOf } from './mcp-call-of.js';
import { classifyMessage } from './mcp-message.js';
import { McpProtocol } from './mcp-protocol.js';
import { McpSession } from './mcp-session.js';
import type { McpTransport } from './mcp-transport.js';
import {
  MAX_PENDING_SERVER_REQUESTS,
  McpServerRequestError,
  ServerRequests,
} from './server-requests.js';

/** Asks its client for its roots and keeps what the call saw. */
@Injectable()
class AskingOperations {
  outcome?: unknown;
  /** The MCP call's deadline and the invocation's, of the last call. */
  deadlines?: { call?: number; invocation?: number };

  @Operation({ id: 'roots.ask', readOnly: true, input: null })
  async ask(_input: unknown, context: InvocationContext) {
    const call = mcpCallOf(context)!;
    this.deadlines = {
      call: call.deadline,
      invocation: context.deadline?.getTime(),
    };
    try {
      this.outcome = await call.sendRequest('roots/list');
      return { answered: true };
    } catch (error) {
      this.outcome = error;
      throw error;
    }
  }
}

/** The app's logger: its warnings kept. */
class Warnings implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

const TIMEOUT = 5_000;

@Module({
  imports: [McpModule.forRoot({ serverName: 'answers', timeout: TIMEOUT })],
  providers: [AskingOperations],
})
class AnswersModule {}

/** An HTTP caller's POST: what the server streams ahead of the answer is kept. */
function post(peer: string, sent: Array<Record<string, unknown>> = []) {
  const transport: McpTransport = {
    kind: 'http',
    caller: { headers: {} },
    peer,
    stream: { open: true, send: (message) => sent.push({ ...message }) },
  };
  return { transport, sent };
}

const ask = (id: number) =>
  classifyMessage({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'roots_ask', arguments: {} },
  });
const answer = (id: unknown) =>
  classifyMessage({ jsonrpc: '2.0', id, result: { roots: [] } });

describe("a client's answers to the requests the server sent", () => {
  let moduleRef: TestingModule;
  let protocol: McpProtocol;
  let operations: AskingOperations;
  const warnings = new Warnings();

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [AnswersModule],
    }).compile();
    moduleRef.useLogger(warnings);
    await moduleRef.init();
    moduleRef.get(McpToolCatalogue).prepare();
    protocol = moduleRef.get(McpProtocol);
    operations = moduleRef.get(AskingOperations);
  });
  afterAll(() => moduleRef.close());
  beforeEach(() => {
    warnings.lines.length = 0;
  });

  async function requestOf(sent: Array<Record<string, unknown>>) {
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    return sent[0];
  }

  it("ignores and logs another caller's answer: the request stays pending for its own caller", async () => {
    const alice = post('credentials bearer alice');
    const answered = protocol.receive(ask(1), alice.transport);
    const request = await requestOf(alice.sent);
    await protocol.receive(
      answer(request.id),
      post('credentials bearer mallory').transport,
    );
    expect(warnings.lines).toEqual([
      `Ignored a client's answer to another caller's request (id ${JSON.stringify(request.id)})`,
    ]);
    expect(operations.outcome).toBeUndefined();
    await protocol.receive(answer(request.id), alice.transport);
    await answered;
    expect(operations.outcome).toEqual({ roots: [] });
    operations.outcome = undefined;
  });

  it('ignores and logs an answer to no request awaited, naming the id and nothing of the content', async () => {
    const { transport } = post('credentials bearer alice');
    await protocol.receive(
      classifyMessage({
        jsonrpc: '2.0',
        id: 'made-up\nid',
        result: { secret: 'hunter2' },
      }),
      transport,
    );
    await protocol.receive(answer(42), transport);
    expect(warnings.lines).toEqual([
      `Ignored a client's answer to no request awaited (id "made-up\\nid")`,
      `Ignored a client's answer to no request awaited (id 42)`,
    ]);
    expect(warnings.lines.join('')).not.toContain('hunter2');
  });

  it("bounds a request by the call's deadline: the module's timeout, or the caller's", async () => {
    const started = Date.now();
    const alice = post('credentials bearer alice');
    const answered = protocol.receive(ask(2), alice.transport);
    const request = await requestOf(alice.sent);
    const { call, invocation } = operations.deadlines!;
    // The MCP call's deadline is set as it begins, never after the invocation's.
    expect(call).toBeGreaterThanOrEqual(started + TIMEOUT);
    expect(call).toBeLessThanOrEqual(invocation!);
    expect(invocation! - call!).toBeLessThan(1_000);
    await protocol.receive(answer(request.id), alice.transport);
    await answered;

    const quick = post('credentials bearer quick');
    const before = Date.now();
    const late = protocol.receive(ask(3), {
      ...quick.transport,
      caller: { headers: {}, timeout: 50 },
    });
    await requestOf(quick.sent);
    expect(operations.deadlines!.call).toBeGreaterThanOrEqual(before + 50);
    expect(operations.deadlines!.call).toBeLessThanOrEqual(Date.now() + 50);
    await late;
    expect(operations.outcome).toBeInstanceOf(McpServerRequestError);
  });
});

describe('a request bounded by its call', () => {
  const memory = () => {
    const sent: Array<Record<string, unknown>> = [];
    const transport: McpTransport = {
      kind: 'stdio',
      caller: { headers: {} },
      stream: { open: true, send: (message) => sent.push({ ...message }) },
    };
    return { transport, sent };
  };
  const request = classifyMessage({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
  });
  if (request.kind !== 'request') {
    throw new Error('not a request');
  }

  it("times out when the call's deadline comes before the request's own timeout", async () => {
    const call = new McpSession().begin(request, memory().transport, 40);
    const failed = call.sendRequest('roots/list', undefined, {
      timeoutMs: 60_000,
    });
    await expect(failed).rejects.toThrow(
      /^roots\/list: the client did not answer within \d+ ms$/,
    );
    const waited = Number(
      /(\d+) ms$/.exec(
        ((await failed.catch((e: Error) => e)) as Error).message,
      )![1],
    );
    // What was left of the call's 40 ms when the request went out.
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(40);
  });

  it('keeps its own timeout when it is the shorter', async () => {
    const call = new McpSession().begin(request, memory().transport, 60_000);
    await expect(
      call.sendRequest('roots/list', undefined, { timeoutMs: 20 }),
    ).rejects.toThrow('roots/list: the client did not answer within 20 ms');
  });

  it("is not sent once the call's deadline has passed", async () => {
    const { transport, sent } = memory();
    const call = new McpSession().begin(request, transport, 1);
    await new Promise((done) => setTimeout(done, 5));
    await expect(call.sendRequest('roots/list')).rejects.toThrow(
      "roots/list: the call's deadline has passed",
    );
    expect(sent).toEqual([]);
  });

  it(`waits on at most ${MAX_PENDING_SERVER_REQUESTS} answers per session, not per instance`, async () => {
    const requests = new ServerRequests();
    const first = new McpSession(undefined, requests, 'credentials a');
    const second = new McpSession(undefined, requests, 'credentials b');
    const { transport, sent } = memory();
    const call = first.begin(request, transport);
    const waiting = Array.from({ length: MAX_PENDING_SERVER_REQUESTS }, () =>
      call.sendRequest('roots/list'),
    );
    await expect(call.sendRequest('roots/list')).rejects.toThrow(
      `roots/list: already waiting on ${MAX_PENDING_SERVER_REQUESTS} answers from the client`,
    );
    const other = second.begin(request, transport);
    const another = other.sendRequest('roots/list');
    expect(sent).toHaveLength(MAX_PENDING_SERVER_REQUESTS + 1);
    // Unique ids; each settled only by the session that sent it.
    expect(new Set(sent.map((m) => m.id)).size).toBe(sent.length);
    const last = answer(sent.at(-1)!.id);
    if (last.kind !== 'response') {
      throw new Error('not a response');
    }
    expect(first.settle(last)).toBe('foreign');
    expect(second.settle(last)).toBe('settled');
    await expect(another).resolves.toEqual({ roots: [] });
    first.end(call);
    await Promise.allSettled(waiting);
    expect(first.idle && second.idle).toBe(false);
    second.end(other);
    expect(first.idle && second.idle).toBe(true);
  });
});
