import {
  createServer,
  type IncomingHttpHeaders,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  acceptsEventStream,
  HttpResponseStream,
} from './http-response-stream.js';

describe('acceptsEventStream', () => {
  const accepts = (accept: string | undefined) =>
    acceptsEventStream(accept === undefined ? {} : { accept });

  it('is true where Accept lists text/event-stream, in any case, among other types', () => {
    expect(accepts('text/event-stream')).toBe(true);
    expect(accepts('application/json, text/event-stream')).toBe(true);
    expect(accepts('text/event-stream,application/json')).toBe(true);
    expect(accepts('application/json , Text/Event-Stream ')).toBe(true);
  });

  it('is false without Accept, or where it lists only other types or wildcards', () => {
    expect(accepts(undefined)).toBe(false);
    expect(accepts('')).toBe(false);
    expect(accepts('application/json')).toBe(false);
    expect(accepts('*/*')).toBe(false);
    expect(accepts('text/*')).toBe(false);
    expect(accepts('text/event-streams')).toBe(false);
  });

  it('reads the q parameter (any case, with spaces) and no other', () => {
    expect(accepts('text/event-stream;q=0')).toBe(false);
    expect(accepts('text/event-stream; Q=0.0')).toBe(false);
    expect(accepts('application/json, text/event-stream ; q=0')).toBe(false);
    expect(accepts('text/event-stream;q=0.001')).toBe(true);
    expect(accepts('text/event-stream; q=1')).toBe(true);
    expect(accepts('text/event-stream; level=1; q=0.5')).toBe(true);
    expect(accepts('text/event-stream; xq=0')).toBe(true);
    expect(accepts('application/json;q=0, text/event-stream')).toBe(true);
  });
});

/** What a client received: status, headers and body. */
interface Received {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real server whose handler hands `serve` the stream of each POST, and a
 * client that sends one with `accept`.
 */
async function streamServer(
  serve: (stream: HttpResponseStream, res: ServerResponse) => void,
) {
  const server: Server = createServer((req, res) =>
    serve(new HttpResponseStream(res, req.headers), res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    post(accept: string): Promise<Received> {
      return new Promise((resolve, reject) => {
        request(
          { host: '127.0.0.1', port, method: 'POST', headers: { accept } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body,
              }),
            );
          },
        )
          .on('error', reject)
          .end();
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const SSE_ACCEPT = 'application/json, text/event-stream';
const note = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
const answer = { jsonrpc: '2.0' as const, id: 1, result: {} };

describe('HttpResponseStream', () => {
  it('turns the answer into an unbuffered event stream at the first message, the answer its last event', async () => {
    const seen: unknown[] = [];
    const server = await streamServer((stream) => {
      seen.push(stream.open);
      stream.send(note);
      stream.send(note);
      seen.push(stream.finish(answer), stream.open);
      stream.send(note);
    });
    try {
      const received = await server.post(SSE_ACCEPT);
      expect(received.status).toBe(200);
      expect(received.headers).toMatchObject({
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      const data = (message: object) =>
        `event: message\ndata: ${JSON.stringify(message)}\n\n`;
      expect(received.body).toBe(data(note) + data(note) + data(answer));
      expect(seen).toEqual([true, true, false]);
    } finally {
      await server.close();
    }
  });

  it('ends a started stream with no last event when there is no answer', async () => {
    const server = await streamServer((stream) => {
      stream.send(note);
      stream.finish(undefined);
    });
    try {
      const received = await server.post(SSE_ACCEPT);
      expect(received.body).toBe(
        `event: message\ndata: ${JSON.stringify(note)}\n\n`,
      );
    } finally {
      await server.close();
    }
  });

  it('a stream that sent nothing leaves the answer to the carrier and closes to later messages', async () => {
    const seen: unknown[] = [];
    const server = await streamServer((stream, res) => {
      seen.push(stream.finish(answer), stream.open);
      stream.send(note);
      res.end('plain');
    });
    try {
      const received = await server.post(SSE_ACCEPT);
      expect(seen).toEqual([false, false]);
      expect(received.headers['content-type']).toBeUndefined();
      expect(received.body).toBe('plain');
    } finally {
      await server.close();
    }
  });

  it('is closed once its response is destroyed', async () => {
    const seen: unknown[] = [];
    const server = await streamServer((stream, res) => {
      seen.push(stream.open);
      res.destroy();
      seen.push(stream.open);
    });
    try {
      await expect(server.post(SSE_ACCEPT)).rejects.toThrow();
      expect(seen).toEqual([true, false]);
    } finally {
      await server.close();
    }
  });
});
