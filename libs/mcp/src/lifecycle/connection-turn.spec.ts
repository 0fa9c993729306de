import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { connectionTurn } from './connection-turn.js';

/** One request as the server saw it: its response and its turn. */
interface Arrival {
  req: IncomingMessage;
  res: ServerResponse;
  turn: boolean | Promise<boolean>;
}

/** A server that asks each request's turn and leaves the answer to the test. */
async function turnServer() {
  const arrivals: Arrival[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    arrivals.push({ req, res, turn: connectionTurn(req, res) });
    waiters.splice(0).forEach((wake) => wake());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    arrivals,
    /** A raw connection; resolves once connected. */
    async connection(): Promise<Socket> {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve, reject) =>
        socket.once('connect', resolve).once('error', reject),
      );
      return socket;
    },
    /** Resolves once the server has seen `count` requests. */
    async arrived(count: number): Promise<void> {
      while (arrivals.length < count) {
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const GET = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Whether `promise` has settled, after the callbacks already queued have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  await new Promise((resolve) => setImmediate(resolve));
  return (await Promise.race([promise, pending])) !== pending;
}

describe('connectionTurn', () => {
  it("is true at once, with no promise, for a connection's first request", async () => {
    const server = await turnServer();
    const socket = await server.connection();
    try {
      socket.write(GET);
      await server.arrived(1);
      expect(server.arrivals[0].turn).toBe(true);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('makes a pipelined request wait until the answer before it has left, then is true', async () => {
    const server = await turnServer();
    const socket = await server.connection();
    try {
      socket.write(GET + GET + GET);
      await server.arrived(3);
      const [first, second, third] = server.arrivals;
      expect(first.turn).toBe(true);
      expect(second.turn).toBeInstanceOf(Promise);
      expect(third.turn).toBeInstanceOf(Promise);
      expect(await settled(second.turn as Promise<boolean>)).toBe(false);
      first.res.end('one');
      expect(await second.turn).toBe(true);
      expect(await settled(third.turn as Promise<boolean>)).toBe(false);
      second.res.end('two');
      expect(await third.turn).toBe(true);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('is false once the connection closes while a request waits, and at once for a closed one', async () => {
    const server = await turnServer();
    const socket = await server.connection();
    try {
      socket.write(GET + GET);
      await server.arrived(2);
      const [first, second] = server.arrivals;
      const closed = new Promise((resolve) =>
        first.req.socket.once('close', resolve),
      );
      socket.destroy();
      expect(await second.turn).toBe(false);
      await closed;
      expect(connectionTurn(first.req, first.res)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('listens once on a connection for all the requests waiting on it', async () => {
    const server = await turnServer();
    const socket = await server.connection();
    try {
      socket.write(GET);
      await server.arrived(1);
      const connection = server.arrivals[0].req.socket;
      const drains = connection.listenerCount('drain');
      const closes = connection.listenerCount('close');
      socket.write(GET + GET + GET);
      await server.arrived(4);
      expect(connection.listenerCount('drain')).toBe(drains + 1);
      expect(connection.listenerCount('close')).toBe(closes + 1);
      server.arrivals.forEach(({ res }) => res.end('ok'));
      await Promise.all(server.arrivals.map(({ turn }) => turn));
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('a request woken by a drain before its turn goes on waiting with one listener', async () => {
    const server = await turnServer();
    const socket = await server.connection();
    socket.pause();
    try {
      socket.write(GET + GET);
      await server.arrived(2);
      const [first, second] = server.arrivals;
      const connection = first.req.socket;
      // More than the kernel's buffers take: the connection needs a drain.
      first.res.write(Buffer.alloc(16 * 1024 * 1024));
      expect(connection.writableNeedDrain).toBe(true);
      const drained = new Promise((resolve) =>
        connection.once('drain', resolve),
      );
      socket.resume();
      await drained;
      expect(await settled(second.turn as Promise<boolean>)).toBe(false);
      expect(second.res.listenerCount('socket')).toBe(1);
      first.res.end();
      expect(await second.turn).toBe(true);
    } finally {
      socket.destroy();
      await server.close();
    }
  });
});
