import { Agent, type Server } from 'node:http';
import { Injectable, Module } from '@nestjs/common';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpModule } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { callHooksOf } from '@nestops/operations/internal';
import { ClientV1, CLIENT_INFO } from '../support/mcp-clients';
import { sendExact, sseEvents } from '../support/mcp-http';
import { HTTP_ADAPTERS, startApp, useApp } from '../support/start-app';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What the streaming operation saw of its stream, per call. */
const seen: { openBefore: boolean; openAfter?: boolean }[] = [];

const note = (data: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data },
});

@Injectable()
class StreamingOperations {
  /** Sends two messages ahead of its answer, then one after it. */
  @Operation({
    input: null,
    id: 'streaming.report',
    description: 'Reports twice, then answers.',
  })
  async report(_input: unknown, context: InvocationContext) {
    const responseStream = callHooksOf(context)!.responseStream!;
    const record: (typeof seen)[number] = { openBefore: responseStream.open };
    seen.push(record);
    responseStream.send(note('first'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    responseStream.send(note('second'));
    setTimeout(() => {
      record.openAfter = responseStream.open;
      responseStream.send(note('too late'));
    }, 20);
    return { done: true };
  }

  /** Sends nothing. */
  @Operation({ id: 'streaming.quiet', description: 'Answers at once.' })
  quiet() {
    return { done: true };
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'streams' })],
  providers: [StreamingOperations],
})
class StreamingModule {}

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

const RESULT = {
  content: [{ type: 'text', text: '{"done":true}' }],
  structuredContent: { done: true },
};

/**
 * A POST with `accept`, or with no Accept header at all when undefined
 * (node:http, since fetch adds `*\/*` by itself): its status, content type
 * and text.
 */
async function post(baseUrl: string, body: object, accept?: string) {
  const reply = await sendExact(baseUrl, {
    headers: {
      'content-type': 'application/json',
      ...(accept === undefined ? {} : { accept }),
    },
    body: JSON.stringify(body),
  });
  return {
    status: reply.status,
    type: reply.header('content-type'),
    text: reply.text,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe.each(HTTP_ADAPTERS)(
  'a call sending messages ahead of its answer (the response stream), on %s',
  (on) => {
    const running = useApp(() =>
      startApp(StreamingModule, { logger: ['error', 'warn'], on }),
    );
    beforeEach(() => {
      seen.length = 0;
    });

    describe('over HTTP', () => {
      it('with Accept: application/json, text/event-stream: an SSE answer, the two messages then the result', async () => {
        const response = await post(
          running().baseUrl,
          call(1, 'streaming_report'),
          'application/json, text/event-stream',
        );
        expect(response.status).toBe(200);
        expect(response.type).toBe('text/event-stream');
        expect(sseEvents(response.text)).toEqual([
          note('first'),
          note('second'),
          { jsonrpc: '2.0', id: 1, result: RESULT },
        ]);
        await settle();
        expect(seen).toEqual([{ openBefore: true, openAfter: false }]);
      });

      it.each([
        ['application/json', 'application/json'],
        ['*/* (what curl sends)', '*/*'],
        ['text/event-stream;q=0', 'application/json, text/event-stream;q=0'],
        ['no Accept header', undefined],
      ])(
        'with Accept %s: the plain JSON result, the messages dropped',
        async (_case, accept) => {
          const response = await post(
            running().baseUrl,
            call(2, 'streaming_report'),
            accept,
          );
          expect(response.status).toBe(200);
          expect(response.type).toBe('application/json');
          expect(JSON.parse(response.text)).toEqual({
            jsonrpc: '2.0',
            id: 2,
            result: RESULT,
          });
          await settle();
          expect(seen).toEqual([{ openBefore: false, openAfter: false }]);
        },
      );

      it('a call that sends nothing is answered byte for byte as without the stream', async () => {
        const streamed = await post(
          running().baseUrl,
          call(3, 'streaming_quiet'),
          'application/json, text/event-stream',
        );
        const plain = await post(
          running().baseUrl,
          call(3, 'streaming_quiet'),
          'application/json',
        );
        expect(streamed).toEqual(plain);
        expect(streamed.type).toBe('application/json');
        expect(streamed.text).toBe(
          `{"jsonrpc":"2.0","id":3,"result":${JSON.stringify(RESULT)}}`,
        );
      });

      it('after an SSE answer, its keep-alive connection serves the next POST', async () => {
        const server = running().app.getHttpServer() as Server;
        let connections = 0;
        const count = () => {
          connections += 1;
        };
        server.on('connection', count);
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (const id of [4, 5]) {
            const reply = await sendExact(running().baseUrl, {
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              },
              body: JSON.stringify(call(id, 'streaming_report')),
              agent,
            });
            expect(reply.header('content-type')).toBe('text/event-stream');
            expect(sseEvents(reply.text).at(-1)).toEqual({
              jsonrpc: '2.0',
              id,
              result: RESULT,
            });
          }
          expect(connections).toBe(1);
        } finally {
          server.off('connection', count);
          agent.destroy();
        }
      });

      it('the official SDK client (v1) receives both messages, then the result', async () => {
        const client = new ClientV1(CLIENT_INFO);
        const received: unknown[] = [];
        client.setNotificationHandler(
          LoggingMessageNotificationSchema,
          (notification) => {
            received.push(notification.params.data);
          },
        );
        await client.connect(
          new StreamableHTTPClientTransport(new URL('/mcp', running().baseUrl)),
        );
        try {
          const result = await client.callTool({
            name: 'streaming_report',
            arguments: {},
          });
          expect(result.structuredContent).toEqual({ done: true });
          expect(received).toEqual(['first', 'second']);
        } finally {
          await client.close();
        }
      });
    });
  },
);
