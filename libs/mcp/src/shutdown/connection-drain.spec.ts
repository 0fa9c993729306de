import {
  Agent,
  createServer,
  get,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionDrain } from './connection-drain.js';

/** A server whose responses the test ends itself, one at a time. */
async function heldServer(closing: () => boolean = () => false) {
  const held: ServerResponse[] = [];
  const arrivals: Array<() => void> = [];
  const server: Server = createServer((_req, res) => {
    held.push(res);
    arrivals.splice(0).forEach((arrived) => arrived());
  });
  const drain = new ConnectionDrain(server, closing);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  return {
    drain,
    held,
    /** A GET on the keep-alive agent; resolves with the answer's headers. */
    request(): Promise<IncomingHttpHeaders> {
      return new Promise((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers));
        }).on('error', reject);
      });
    },
    /** Resolves once the server holds `count` responses. */
    async holding(count: number): Promise<void> {
      while (held.length < count) {
        await new Promise<void>((arrived) => arrivals.push(arrived));
      }
    },
    async close(): Promise<void> {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('ConnectionDrain', () => {
  it('before draining, leaves keep-alive connections open', async () => {
    const server = await heldServer();
    try {
      const answer = server.request();
      await server.holding(1);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('keep-alive');
    } finally {
      await server.close();
    }
  });

  it('closes the connection of a response under way when draining begins', async () => {
    const server = await heldServer();
    try {
      const answer = server.request();
      await server.holding(1);
      server.drain.begin(60_000);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('close');
      expect(server.drain.isDraining()).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('closes the connection of a response that starts while draining', async () => {
    const server = await heldServer();
    try {
      server.drain.begin(60_000);
      const answer = server.request();
      await server.holding(1);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('close');
    } finally {
      await server.close();
    }
  });

  it('drains once the app says it is closing, before begin()', async () => {
    let closing = false;
    const server = await heldServer(() => closing);
    try {
      closing = true;
      const answer = server.request();
      await server.holding(1);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('close');
      expect(server.drain.isDraining()).toBe(true);
    } finally {
      await server.close();
    }
  });
});
