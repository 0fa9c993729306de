import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a connection must have been idle before a drain without a drain
 * delay closes it. With a delay (an instance behind a balancer), the
 * server's own `keepAliveTimeout` is the limit instead (see the class).
 */
export const IDLE_BEFORE_CLOSE = 500;

/** A connection's answers under way, and since when it has had none. */
interface Use {
  answers: number;
  idleSince: number;
  /** The bytes read from the connection when it became idle. */
  readWhenIdle: number;
}

/**
 * Takes an HTTP server out of service without resetting anyone.
 *
 * `leave(delay, grace)`: for `delay` ms the server serves as before (only
 * `isLeaving()` turns true, for a readiness answer); then, right after a
 * turn of the event loop that accepted no connection, it stops accepting
 * connections, every response that has not started yet goes out with
 * `Connection: close` (a keep-alive connection ends after the answer under
 * way, and a request that comes in on one is still answered), idle
 * connections are closed between requests, and it resolves once the last
 * connection has closed. Connections still open `grace` ms after the delay
 * are destroyed.
 *
 * Node's `server.close()` calls `closeIdleConnections()`, which destroys
 * at once every connection whose parser sits between two messages,
 * including one whose next request has arrived but not been read yet (the
 * event loop was busy with the shutdown): the kernel answers the unread
 * bytes with a reset, and the client, or the proxy in front, sees
 * `ECONNRESET`. So here that call closes a connection (with nothing unread, no reset)
 * only once no answer is under way on it, it has been idle long enough (a
 * client that sends request after request is answered, with `Connection:
 * close`, instead), and the event loop has polled its sockets since: what
 * had arrived is then read and parsed, and the connection no longer idle.
 * It is destroyed, not ended: a request that crosses a half-close would
 * still be run, its answer lost.
 *
 * Long enough is `IDLE_BEFORE_CLOSE` ms without a drain delay, and the
 * server's `keepAliveTimeout` (Node's 5 s) with one. A balancer keeps idle
 * connections to each instance and sends on one whenever it likes (nginx
 * tries an instance again every `fail_timeout`, on a cached connection
 * first): a connection the server ends while such a request is on its way
 * has run the request and lost the answer (nginx: `upstream prematurely
 * closed connection`, a `502`). A balancer whose idle timeout is below the
 * server's, as it must be anyway, closes each idle connection itself
 * before this limit, so the server never races it.
 */
export class ConnectionDrain {
  private readonly pending = new Set<ServerResponse>();
  private readonly uses = new Map<Socket, Use>();
  private draining = false;
  /** Whether `closeIdleConnections()` (`server.close()`) has run. */
  private closingIdle = false;
  private idleLimit = IDLE_BEFORE_CLOSE;
  private leaving?: Promise<void>;
  private deadline?: NodeJS.Timeout;

  constructor(private readonly server: Server) {
    // Ahead of the app's listener, which may answer at once: the answer
    // must still get `Connection: close` while draining.
    server.prependListener('request', (req, res) => this.track(req, res));
    server.on('connection', (socket: Socket) => {
      this.uses.set(socket, {
        answers: 0,
        idleSince: performance.now(),
        readWhenIdle: 0,
      });
      socket.once('close', () => this.uses.delete(socket));
    });
    server.on('close', () => clearTimeout(this.deadline));
    server.closeIdleConnections = () => this.closeIdle();
  }

  /** Whether `leave` was called: the server is leaving, or has left. */
  isLeaving(): boolean {
    return this.leaving !== undefined;
  }

  /**
   * @internal The connections being tracked: the open ones (a closed one is
   * forgotten, or a long-running server would keep every connection it had).
   */
  connectionCount(): number {
    return this.uses.size;
  }

  /** Whether connections are being drained: from `begin` on. */
  isDraining(): boolean {
    return this.draining;
  }

  /**
   * Serves on for `delay` ms, then drains (see the class); resolves once the
   * server is closed. Later calls return the first call's promise.
   */
  leave(delay: number, grace: number): Promise<void> {
    this.leaving ??= this.drainAfter(delay, grace);
    return this.leaving;
  }

  /** Starts draining; after `gracePeriod` ms, drops the connections left. */
  begin(gracePeriod: number): void {
    if (this.draining) {
      return;
    }
    this.draining = true;
    this.pending.forEach(closeAfter);
    this.deadline = setTimeout(
      () => this.server.closeAllConnections(),
      gracePeriod,
    );
    this.deadline.unref();
  }

  private async drainAfter(delay: number, grace: number): Promise<void> {
    if (delay > 0) {
      this.idleLimit = this.server.keepAliveTimeout || KEEP_ALIVE_TIMEOUT;
      await sleep(delay);
    }
    // Not listening, the queue's watch resolves after one turn.
    await acceptQueueEmpty(this.server, grace);
    this.begin(grace);
    // Resolves once no connection is left (not listening: at once).
    await new Promise<unknown>((closed) => this.server.close(closed));
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    if (this.draining) {
      closeAfter(res);
    }
    this.pending.add(res);
    const socket = req.socket as Socket;
    const use = this.uses.get(socket);
    if (use) {
      use.answers += 1;
    }
    res.once('close', () => {
      this.pending.delete(res);
      if (use) {
        use.answers -= 1;
        use.idleSince = performance.now();
        use.readWhenIdle = socket.bytesRead;
        if (this.closingIdle) {
          // Idle now, unless the answer closes it (`Connection: close`):
          // one that had sent its headers (keep-alive) before the drain.
          this.closeWhenIdle(socket, use);
        }
      }
    });
  }

  /** Closes each idle connection between requests (see the class). */
  private closeIdle(): void {
    this.closingIdle = true;
    for (const [socket, use] of this.uses) {
      this.closeWhenIdle(socket, use);
    }
  }

  /**
   * Ends the connection once it has been idle long enough and the event
   * loop has polled it since. One with an answer under way, or a request
   * that came in meanwhile, is checked again once that answer has gone out
   * (see `track`); one on which bytes of a request came since it became
   * idle, but not yet its headers, is idle again from then on; ending a
   * closed connection does nothing.
   */
  private closeWhenIdle(socket: Socket, use: Use): void {
    const wait = use.idleSince + this.idleLimit - performance.now();
    if (wait > 0) {
      setTimeout(() => this.closeWhenIdle(socket, use), wait).unref();
      return;
    }
    afterNextPoll(() => {
      if (use.answers > 0) {
        return;
      }
      if (socket.bytesRead !== use.readWhenIdle) {
        // A request is coming (its first bytes read, its headers not all
        // in): idle again from now, if it never comes whole.
        use.idleSince = performance.now();
        use.readWhenIdle = socket.bytesRead;
        this.closeWhenIdle(socket, use);
        return;
      }
      // Bytes read but not parsed yet (a paused socket) are a request
      // coming, answered, then checked again. Destroyed, not ended: Node
      // would still run a request that crossed an `end()`'s FIN, and its
      // answer could not be sent (a proxy's 502 for a committed write).
      if (socket.readableLength === 0) {
        socket.destroy();
      }
    });
  }
}

/** Node's default `keepAliveTimeout`, for a server that set none (0). */
const KEEP_ALIVE_TIMEOUT = 5_000;

function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
  }
}

/**
 * Runs `task` after the event loop's next poll for I/O: an immediate
 * scheduled from an immediate runs in the next turn of the loop, after its
 * poll phase.
 */
function afterNextPoll(task: () => void): void {
  setImmediate(() => setImmediate(task));
}

/**
 * Resolves right after a turn of the event loop in which the server
 * accepted no connection (or after `bound` ms). Closing the listening
 * socket resets every connection still in the kernel's queue, whose client
 * may have sent its request already; a turn whose poll accepted nothing
 * found none queued. One that arrives after that poll is still reset: only
 * a balancer that has stopped connecting (or a socket that outlives the
 * server) leaves none.
 */
function acceptQueueEmpty(server: Server, bound: number): Promise<void> {
  return new Promise((resolve) => {
    let accepted: boolean; // set by each turn before the poll
    const onConnection = (): void => {
      accepted = true;
    };
    const done = (): void => {
      clearTimeout(timer);
      server.off('connection', onConnection);
      resolve();
    };
    const timer = setTimeout(done, bound);
    server.on('connection', onConnection);
    // An immediate set from an immediate runs after the next poll for I/O.
    const nextTurn = (): void => {
      accepted = false;
      setImmediate(() => (accepted ? nextTurn() : done()));
    };
    setImmediate(nextTurn);
  });
}
