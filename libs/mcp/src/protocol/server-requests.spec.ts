import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { IsInt, IsOptional } from 'class-validator';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import { McpModule } from '../mcp.module.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { resultValue } from './answer-text.js';
import { mcpCallOf } from './mcp-call-of.js';
import { classifyMessage } from './mcp-message.js';
import { McpProtocol } from './mcp-protocol.js';
import type { McpSession } from './mcp-session.js';
import type { McpTransport } from './mcp-transport.js';
import {
  MAX_PENDING_SERVER_REQUESTS,
  McpServerRequestError,
} from './server-requests.js';

class AskDto {
  @IsOptional()
  @IsInt()
  timeoutMs?: number;
}

/** Asks its client for its roots mid-call and answers with them. */
@Injectable()
class RootsOperations {
  /** What the last call's request ended with. */
  outcome?: unknown;

  @Operation({ id: 'roots.ask', readOnly: true })
  async ask(input: AskDto, context: InvocationContext) {
    const call = mcpCallOf(context)!;
    try {
      const answer = await call.sendRequest('roots/list', undefined, {
        timeoutMs: input.timeoutMs,
      });
      this.outcome = answer;
      return { roots: (answer as { roots: unknown[] }).roots.length };
    } catch (error) {
      this.outcome = error;
      throw error;
    }
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'roots', serverVersion: '1.0.0' })],
  providers: [RootsOperations],
})
class RootsModule {}

/** A transport in memory: what the server sends ahead of answers is kept. */
function memoryTransport(open = true) {
  const sent: Array<Record<string, unknown>> = [];
  const transport: McpTransport = {
    kind: 'stdio',
    caller: { headers: {} },
    stream: { open, send: (message) => sent.push({ ...message }) },
  };
  return { transport, sent };
}

const call = (id: number, args: object = {}, meta?: object) =>
  classifyMessage({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'roots_ask',
      arguments: args,
      ...(meta ? { _meta: meta } : {}),
    },
  });

describe('requests the server sends its client during a call', () => {
  let moduleRef: TestingModule;
  let protocol: McpProtocol;
  let operations: RootsOperations;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [RootsModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    moduleRef.get(McpToolCatalogue).prepare();
    protocol = moduleRef.get(McpProtocol);
    operations = moduleRef.get(RootsOperations);
  });
  afterAll(() => moduleRef.close());

  /** The request the server sent, once it has. */
  async function sentRequest(sent: Array<Record<string, unknown>>) {
    await vi.waitFor(() =>
      expect(sent.some((m) => m.method === 'roots/list')).toBe(true),
    );
    return sent.find((m) => m.method === 'roots/list')!;
  }

  function answerOf(response: JsonRpcResponse | undefined) {
    return response && 'result' in response
      ? (resultValue(response.result) as {
          isError?: boolean;
          content: Array<{ text: string }>;
          structuredContent?: unknown;
        })
      : undefined;
  }

  it('sends the request on the call stream and answers the call with the client result', async () => {
    const { transport, sent } = memoryTransport();
    const session = protocol.openSession();
    const answered = protocol.receive(call(1), transport, session);
    const request = await sentRequest(sent);
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.stringMatching(/^[0-9a-f]{16}-\d+$/),
      method: 'roots/list',
    });
    const reply = classifyMessage({
      jsonrpc: '2.0',
      id: request.id,
      result: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] },
    });
    expect(await protocol.receive(reply, transport, session)).toBeUndefined();
    expect(answerOf(await answered)?.structuredContent).toEqual({ roots: 2 });
    expect(session.idle).toBe(true);
  });

  it('drops the pending request when the call is cancelled, and ignores its late answer', async () => {
    const { transport, sent } = memoryTransport();
    const session = protocol.openSession();
    const answered = protocol.receive(call(2), transport, session);
    const request = await sentRequest(sent);
    await protocol.receive(
      classifyMessage({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 2 },
      }),
      transport,
      session,
    );
    // Over stdio a cancelled request is not answered.
    expect(await answered).toBeUndefined();
    expect(operations.outcome).toBeInstanceOf(McpServerRequestError);
    expect((operations.outcome as Error).message).toBe(
      'roots/list: the call was cancelled',
    );
    expect(session.idle).toBe(true);
    const late = classifyMessage({
      jsonrpc: '2.0',
      id: request.id,
      result: { roots: [] },
    });
    expect(late.kind === 'response' && session.settle(late)).toBe('unknown');
    expect(await protocol.receive(late, transport, session)).toBeUndefined();
  });

  it('fails the call with the client error answer', async () => {
    const { transport, sent } = memoryTransport();
    const session = protocol.openSession();
    const answered = protocol.receive(call(3), transport, session);
    const request = await sentRequest(sent);
    await protocol.receive(
      classifyMessage({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32601, message: 'Method not found' },
      }),
      transport,
      session,
    );
    expect(answerOf(await answered)?.isError).toBe(true);
    expect(operations.outcome).toMatchObject({
      code: -32601,
      message:
        'roots/list: the client answered with an error: Method not found',
    });
  });

  it('gives up when the client does not answer in time', async () => {
    const { transport } = memoryTransport();
    const answered = protocol.receive(
      call(4, { timeoutMs: 20 }),
      transport,
      protocol.openSession(),
    );
    expect(answerOf(await answered)?.isError).toBe(true);
    expect((operations.outcome as Error).message).toBe(
      'roots/list: the client did not answer within 20 ms',
    );
  });

  it('refuses a request where the call has no open stream, and in a 2026 call', async () => {
    const closed = memoryTransport(false);
    await protocol.receive(call(5), closed.transport, protocol.openSession());
    expect((operations.outcome as Error).message).toBe(
      'roots/list: the call has no open stream to its client',
    );
    expect(closed.sent).toEqual([]);
    const open = memoryTransport();
    await protocol.receive(
      call(
        6,
        {},
        {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      ),
      open.transport,
      protocol.openSession(),
    );
    expect((operations.outcome as Error).message).toBe(
      'roots/list: a 2026-07-28 call cannot send the client a request on its stream',
    );
    expect(open.sent).toEqual([]);
  });

  it(`waits on at most ${MAX_PENDING_SERVER_REQUESTS} answers in a session`, async () => {
    const { transport, sent } = memoryTransport();
    const session: McpSession = protocol.openSession();
    const calls = Array.from(
      { length: MAX_PENDING_SERVER_REQUESTS + 1 },
      (_, i) => protocol.receive(call(100 + i), transport, session),
    );
    await vi.waitFor(() =>
      expect(sent).toHaveLength(MAX_PENDING_SERVER_REQUESTS),
    );
    const refused = answerOf(await calls[MAX_PENDING_SERVER_REQUESTS]);
    expect(refused?.isError).toBe(true);
    for (const request of sent) {
      await protocol.receive(
        classifyMessage({
          jsonrpc: '2.0',
          id: request.id,
          result: { roots: [] },
        }),
        transport,
        session,
      );
    }
    const answers = await Promise.all(calls.slice(0, -1));
    expect(answers.every((a) => answerOf(a)?.structuredContent)).toBe(true);
    expect(session.idle).toBe(true);
  });

  it("settles an HTTP caller's request only from that caller", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const peer = (who: string): McpTransport => ({
      kind: 'http',
      caller: { headers: {} },
      peer: who,
      stream: { open: true, send: (message) => sent.push({ ...message }) },
    });
    const answered = protocol.receive(call(7), peer('authorization Bearer a'));
    const request = await sentRequest(sent);
    const reply = classifyMessage({
      jsonrpc: '2.0',
      id: request.id,
      result: { roots: [{ uri: 'file:///x' }] },
    });
    // Another caller's POST answering the same id settles nothing.
    await protocol.receive(reply, peer('authorization Bearer b'));
    await new Promise((settle) => setTimeout(settle, 20));
    await protocol.receive(reply, peer('authorization Bearer a'));
    expect(answerOf(await answered)?.structuredContent).toEqual({ roots: 1 });
  });
});
