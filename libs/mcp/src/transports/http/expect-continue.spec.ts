import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerExpectContinue } from './expect-continue.js';
import { targetPath } from './http-routes.js';

/** What a client with `Expect: 100-continue` saw. */
interface Seen {
  readonly continued: boolean;
  readonly status: number;
}

function post(server: Server, path: string): Promise<Seen> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { expect: '100-continue', 'content-length': 2 },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ continued, status: res.statusCode ?? 0 }),
        );
      },
    );
    req.on('continue', () => {
      continued = true;
      req.end('{}');
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('answerExpectContinue', () => {
  let server: Server;
  const requests: string[] = [];

  beforeEach(async () => {
    requests.length = 0;
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    answerExpectContinue(
      server,
      (req) => targetPath(req) === '/refused',
      (_req, res) => res.writeHead(413, { Connection: 'close' }).end(),
    );
    await new Promise<void>((listening) =>
      server.listen(0, '127.0.0.1', listening),
    );
  });
  afterEach(() => new Promise<void>((closed) => server.close(() => closed())));

  it('sends 100 and hands the request to the server, as Node does', async () => {
    expect(await post(server, '/other?x=1')).toEqual({
      continued: true,
      status: 204,
    });
    expect(requests).toEqual(['/other?x=1']);
  });

  it('answers a refused request itself, before any 100, and hands it on to nothing', async () => {
    expect(await post(server, '/refused?x=1')).toEqual({
      continued: false,
      status: 413,
    });
    expect(requests).toEqual([]);
  });

  it("leaves every request to the app's own listener when it has one", async () => {
    server.on('checkContinue', (_req: IncomingMessage, res) =>
      res.writeHead(417).end(),
    );
    expect(await post(server, '/refused')).toEqual({
      continued: false,
      status: 417,
    });
    expect(await post(server, '/other')).toEqual({
      continued: false,
      status: 417,
    });
  });
});
