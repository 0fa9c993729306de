import {
  Agent,
  createServer,
  get,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectionDrain, IDLE_BEFORE_CLOSE } from './connection-drain.js';

/** A server whose responses the test ends itself, one at a time. */
async function heldServer() {
  const held: ServerResponse[] = [];
  const arrivals: Array<() => void> = [];
  const server: Server = createServer((_req, res) => {
    held.push(res);
    arrivals.splice(0).forEach((arrived) => arrived());
  });
  const drain = new ConnectionDrain(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  return {
    server,
    drain,
    held,
    port,
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

  it('answers a request that arrived on an idle keep-alive connection just as server.close() runs, and does not reset it', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      socket.write(GET);
      expect(await reader.next()).toMatch(
        /^HTTP\/1.1 200 OK\r\n[^]*keep-alive/i,
      );
      // The next request's bytes reach the server's socket in the same turn
      // as server.close() (which Nest calls too): the server has not read
      // them yet.
      socket.write(GET);
      drain.begin(60_000);
      const closed = new Promise((resolve) => server.close(resolve));
      await lastAnswerThenEnd(reader);
      await closed;
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('closes an idle keep-alive connection between requests once draining, with no reset', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      socket.write(GET);
      await reader.next();
      await drain.leave(0, 60_000);
      expect(await reader.ended).toBe('end');
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('never runs a request that reaches a connection after the drain closed it (its answer could not be sent)', async () => {
    let ran = 0;
    const server = createServer((_req, res) => {
      ran += 1;
      res.end('ok');
    });
    server.keepAliveTimeout = 60_000;
    const drain = new ConnectionDrain(server);
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const { port } = server.address() as AddressInfo;
    // A client that goes on writing after the server's FIN, as a proxy
    // whose request crossed it does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const reader = readerOf(socket);
    try {
      socket.write(GET);
      await reader.next();
      const left = drain.leave(0, 60_000);
      expect(await reader.ended).toBe('end');
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
      await sleep(200);
      expect(ran).toBe(1);
      socket.destroy();
      await left;
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it.each([
    ['the keepAliveTimeout', 4_000],
    ["Node's default keepAliveTimeout where the server set none", 0],
  ])(
    'with a drain delay, keeps an idle connection until %s, answering a request a balancer sends on it later',
    async (_limit, keepAliveTimeout) => {
      const { server, drain, socket, reader } = await rawConnection();
      server.keepAliveTimeout = keepAliveTimeout;
      try {
        socket.write(GET);
        await reader.next();
        const left = drain.leave(50, 60_000);
        // Idle well past IDLE_BEFORE_CLOSE: a balancer's cached connection,
        // used again (nginx after its fail_timeout).
        await sleep(IDLE_BEFORE_CLOSE + 700);
        socket.write(GET);
        const second = await Promise.race([
          reader.next(),
          reader.ended.then((how) => `closed first: ${how}`),
        ]);
        expect(second).toMatch(/^HTTP\/1.1 200 OK\r\n/);
        expect(second).toMatch(/\r\nConnection: close\r\n/i);
        expect(await reader.ended).toBe('end');
        await left;
      } finally {
        socket.destroy();
        server.closeAllConnections();
      }
    },
  );

  it('cuts off a response still under way when the grace period ends', async () => {
    const server = await heldServer();
    try {
      const answer = server.request();
      await server.holding(1);
      server.drain.begin(50);
      await expect(answer).rejects.toThrow(/socket hang up|ECONNRESET/);
    } finally {
      await server.close();
    }
  });

  it('a second begin() keeps the first grace period', async () => {
    const server = await heldServer();
    try {
      const answer = server.request();
      await server.holding(1);
      server.drain.begin(60_000);
      server.drain.begin(50);
      await sleep(200);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('close');
    } finally {
      await server.close();
    }
  });

  it('begins draining while a response that has sent its headers is under way', async () => {
    const server = await heldServer();
    try {
      const answer = server.request();
      await server.holding(1);
      server.held[0].flushHeaders();
      server.drain.begin(60_000);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('keep-alive');
    } finally {
      await server.close();
    }
  });

  it('closes, once idle, a keep-alive connection whose answer had sent its headers when the server closed', async () => {
    const { server, reader, close } = await heldRequestOnIdleConnection();
    try {
      // A stream (server-sent events) under way: its headers, keep-alive,
      // went out before the drain, so Node keeps the connection after it.
      server.held[0].flushHeaders();
      const left = server.drain.leave(0, 60_000);
      await sleep(50);
      server.held[0].end('ok');
      expect(await reader.ended).toBe('end');
      await left;
    } finally {
      await close();
    }
  });

  it('keeps the connection of an answer under way past the idle limit once the server closes, then ends it after that answer', async () => {
    const { server, reader, close } = await heldRequestOnIdleConnection();
    try {
      const left = server.drain.leave(0, 60_000);
      await sleep(IDLE_BEFORE_CLOSE + 200);
      server.held[0].end('ok');
      await lastAnswerThenEnd(reader);
      await left;
    } finally {
      await close();
    }
  });

  it('before draining, keeps an idle keep-alive connection open past the idle limit', async () => {
    const { server, socket, reader } = await rawConnection();
    try {
      socket.write(GET);
      await reader.next();
      await sleep(IDLE_BEFORE_CLOSE + 200);
      expect(await isSettled(reader.ended)).toBe(false);
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('an answer ended just now makes its connection idle from then, however old the connection', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      await sleep(IDLE_BEFORE_CLOSE + 100);
      socket.write(GET);
      await reader.next();
      drain.begin(60_000);
      const closed = new Promise((resolve) => server.close(resolve));
      await sleep(50);
      socket.write(GET);
      const second = await Promise.race([
        reader.next(),
        reader.ended.then((how) => `closed first: ${how}`),
      ]);
      expect(second).toMatch(/\r\nConnection: close\r\n/i);
      await closed;
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('answers, with Connection: close, on a connection opened before the drain was set up', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const reader = readerOf(socket);
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      new ConnectionDrain(server).begin(60_000);
      socket.write(GET);
      expect(await reader.next()).toMatch(/\r\nConnection: close\r\n/i);
      expect(await reader.ended).toBe('end');
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('answers each connection still in the accept queue when the drain begins, resetting none', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 60_000;
    const drain = new ConnectionDrain(server);
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const { port } = server.address() as AddressInfo;
    const sockets = Array.from({ length: 5 }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.write(GET);
      return socket;
    });
    const readers = sockets.map(readerOf);
    try {
      // net.connect() connects on the next tick: after it, the kernel has
      // the five connections queued (loopback), and the event loop, which
      // takes one off the queue per turn, has accepted none yet.
      await new Promise((resolve) => process.nextTick(resolve));
      const left = drain.leave(0, 60_000);
      for (const reader of readers) {
        expect(await reader.next()).toMatch(/^HTTP\/1.1 200 OK\r\n/);
        expect(await reader.ended).toBe('end');
      }
      await left;
    } finally {
      sockets.forEach((socket) => socket.destroy());
      server.closeAllConnections();
    }
  });

  it('answers a request that comes in on an idle connection while the drain is about to end it', async () => {
    const server = await heldServer();
    const socket = connect(server.port, '127.0.0.1');
    const reader = readerOf(socket);
    try {
      socket.write(GET);
      await server.holding(1);
      server.held[0].end('ok');
      await reader.next();
      await sleep(IDLE_BEFORE_CLOSE + 100);
      // Idle long enough: server.close() has the connection ended after
      // the next poll, in which this request is read. Its answer is held:
      // the connection must stay open for it.
      server.drain.begin(60_000);
      const closed = new Promise((resolve) => server.server.close(resolve));
      socket.write(GET);
      await server.holding(2);
      await sleep(50);
      server.held[1].end('ok');
      await lastAnswerThenEnd(reader);
      await closed;
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it('answers a request whose first bytes came before the drain ended its idle connection, and its headers after', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      socket.write(GET);
      await reader.next();
      await sleep(IDLE_BEFORE_CLOSE + 100);
      // Read by Node's parser, but no request yet: its headers are not all in.
      socket.write(GET.slice(0, 20));
      await sleep(50);
      drain.begin(60_000);
      const closed = new Promise((resolve) => server.close(resolve));
      await sleep(50);
      socket.write(GET.slice(20));
      await lastAnswerThenEnd(reader);
      await closed;
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('ends an idle connection whose request began but never came whole, once idle again', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      socket.write(GET);
      await reader.next();
      await sleep(IDLE_BEFORE_CLOSE + 100);
      socket.write(GET.slice(0, 20));
      await sleep(50);
      drain.begin(60_000);
      const started = performance.now();
      await new Promise((resolve) => server.close(resolve));
      expect(await reader.ended).toBe('end');
      expect(performance.now() - started).toBeGreaterThanOrEqual(
        IDLE_BEFORE_CLOSE - 50,
      );
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('keeps an idle connection whose next request waits, read but not parsed, in its paused socket', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      const accepted = new Promise<Socket>((resolve) =>
        server.once('connection', resolve),
      );
      socket.write(GET);
      await reader.next();
      // An app that reads the connection's bytes itself: Node's parser then
      // gets them through the socket's stream, which buffers them while the
      // app has it paused.
      const connection = await accepted;
      connection.on('data', () => undefined);
      connection.pause();
      await sleep(IDLE_BEFORE_CLOSE + 100);
      socket.write(GET);
      while (connection.readableLength === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      drain.begin(60_000);
      const closed = new Promise((resolve) => server.close(resolve));
      // Past an idle period after the bytes came: they are not new by then.
      await sleep(2 * IDLE_BEFORE_CLOSE + 100);
      connection.resume();
      await lastAnswerThenEnd(reader);
      await closed;
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it('forgets a connection once it has closed', async () => {
    const { server, drain, socket, reader } = await rawConnection();
    try {
      const accepted = new Promise<Socket>((resolve) =>
        server.once('connection', resolve),
      );
      socket.write(GET);
      await reader.next();
      const connection = await accepted;
      expect(drain.connectionCount()).toBe(1);
      const closed = new Promise((resolve) =>
        connection.once('close', resolve),
      );
      socket.end();
      await closed;
      expect(drain.connectionCount()).toBe(0);
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  it("leaves the connections of a server that listens again after its drain to themselves past the drain's grace period", async () => {
    const server = await heldServer();
    try {
      await server.drain.leave(0, 100);
      await new Promise<void>((resolve) =>
        server.server.listen(server.port, '127.0.0.1', resolve),
      );
      const answer = server.request();
      await server.holding(1);
      await sleep(300);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('close');
    } finally {
      await server.close();
    }
  });

  it('serves on through the drain delay, then stops taking connections', async () => {
    const server = await heldServer();
    // The agent's idle connection closes by this limit (see the class).
    server.server.keepAliveTimeout = 300;
    try {
      expect(server.drain.isLeaving()).toBe(false);
      const connections = server.server.listenerCount('connection');
      const left = server.drain.leave(50, 60_000);
      expect(server.drain.isLeaving()).toBe(true);
      expect(server.drain.isDraining()).toBe(false);
      const answer = server.request();
      await server.holding(1);
      server.held[0].end('ok');
      expect((await answer).connection).toBe('keep-alive');
      await left;
      expect(server.drain.isDraining()).toBe(true);
      // The accept queue's watch is gone with it.
      expect(server.server.listenerCount('connection')).toBe(connections);
      const refused = connect(server.port, '127.0.0.1');
      await expect(
        new Promise((resolve, reject) =>
          refused.once('connect', resolve).once('error', reject),
        ),
      ).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await server.close();
    }
  });
});

const GET = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** A server answering `ok` at once, and a raw connection to it. */
async function rawConnection() {
  const server = createServer((_req, res) => res.end('ok'));
  // Far beyond any test: an idle connection that ends was ended by the
  // drain, not by Node's own idle timeout (5 s by default).
  server.keepAliveTimeout = 60_000;
  const drain = new ConnectionDrain(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  return { server, drain, socket, reader: readerOf(socket) };
}

/**
 * A held server and a raw connection to it that was idle past the idle
 * limit (so the server's close checks it at once, not again by the idle
 * limit's timer), then sent a GET, which the server holds; `close` ends
 * both.
 */
async function heldRequestOnIdleConnection() {
  const server = await heldServer();
  // Far beyond the test, as in rawConnection().
  server.server.keepAliveTimeout = 60_000;
  const socket = connect(server.port, '127.0.0.1');
  const reader = readerOf(socket);
  const close = async (): Promise<void> => {
    socket.destroy();
    await server.close();
  };
  try {
    await sleep(IDLE_BEFORE_CLOSE + 100);
    socket.write(GET);
    await server.holding(1);
  } catch (error) {
    await close();
    throw error;
  }
  return { server, reader, close };
}

/** The answers on a raw socket, one `next()` each, and how the socket ended. */
function readerOf(socket: Socket) {
  let text = '';
  let wake = () => undefined as void;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
    wake();
  });
  const ended = new Promise<string>((resolve) => {
    socket.on('end', () => resolve('end'));
    socket.on('error', (error) => resolve(error.message));
  });
  return {
    ended,
    /** The next whole answer (a body of `ok`). */
    async next(): Promise<string> {
      for (;;) {
        const end = text.indexOf('\r\n\r\nok');
        if (end >= 0) {
          const answer = text.slice(0, end + 6);
          text = text.slice(end + 6);
          return answer;
        }
        await Promise.race([
          new Promise<void>((resolve) => {
            wake = resolve;
          }),
          ended,
        ]);
        if (text.indexOf('\r\n\r\nok') < 0 && (await isSettled(ended))) {
          throw new Error(`The connection ended: ${await ended}`);
        }
      }
    },
  };
}

/**
 * The next answer on the connection is a `200` with `Connection: close`, and
 * then the connection ends (no reset).
 */
async function lastAnswerThenEnd(
  reader: ReturnType<typeof readerOf>,
): Promise<void> {
  const answer = await reader.next();
  expect(answer).toMatch(/^HTTP\/1.1 200 OK\r\n/);
  expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  expect(await reader.ended).toBe('end');
}

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, pending])) !== pending;
}
