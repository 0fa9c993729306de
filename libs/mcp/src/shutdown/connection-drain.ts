import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Takes an HTTP server out of service without resetting anyone.
 *
 * `leave(delay, grace)`: for `delay` ms the server serves as before (only
 * `isLeaving()` turns true, for a readiness answer); then, right after a
 * turn of the event loop that accepted no connection, it stops accepting
 * connections, every response that has not started yet goes out
 * with `Connection: close` (a keep-alive connection ends after the answer
 * under way, and a request that comes in on one is still answered), and it
 * resolves once the last connection has closed. Connections still open
 * `grace` ms after the delay are destroyed.
 *
 * Idle connections are closed between requests only, by the server's
 * keep-alive timeout (`server.keepAliveTimeout`, 5 s by default), as they
 * are while it serves. Node's `server.close()` calls
 * `closeIdleConnections()`, which destroys at once every connection whose
 * parser sits between two messages, including one whose next request has
 * arrived but not been read yet (the event loop was busy with the
 * shutdown): the kernel answers the unread bytes with a reset, and the
 * client, or the proxy in front, sees `ECONNRESET`; and a proxy that picks
 * an idle connection just then gets no answer. So that call does nothing
 * here: a client that sends on its connection is answered (with
 * `Connection: close`), one that does not is closed when the keep-alive
 * timeout ends, and a proxy whose own idle timeout is shorter (as it should
 * be) closes its connections itself.
 */
export class ConnectionDrain {
  private readonly pending = new Set<ServerResponse>();
  private draining = false;
  private leaving?: Promise<void>;
  private deadline?: NodeJS.Timeout;

  constructor(
    private readonly server: Server,
    private readonly closing: () => boolean,
  ) {
    server.prependListener('request', (_req, res) => this.track(res));
    server.on('close', () => clearTimeout(this.deadline));
    server.closeIdleConnections = () => undefined;
  }

  /** Whether `leave` was called: the server is leaving, or has left. */
  isLeaving(): boolean {
    return this.leaving !== undefined;
  }

  /** Whether connections are being drained, or the app is closing. */
  isDraining(): boolean {
    return this.draining || this.closing();
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
      await sleep(delay);
    }
    if (this.server.listening) {
      await acceptQueueEmpty(this.server, grace);
    }
    this.begin(grace);
    // Resolves once no connection is left (not listening: at once).
    await new Promise<unknown>((closed) => this.server.close(closed));
  }

  private track(res: ServerResponse<IncomingMessage>): void {
    if (this.isDraining()) {
      closeAfter(res);
    }
    this.pending.add(res);
    res.once('close', () => this.pending.delete(res));
  }
}

function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
  }
}

/**
 * Resolves right after a turn of the event loop in which the server
 * accepted no connection (or after `bound` ms). Node takes one connection
 * off the kernel's accept queue per turn, and closing the listening socket
 * resets every connection still queued, whose client may have sent its
 * request already; a turn that accepted nothing had none queued.
 */
function acceptQueueEmpty(server: Server, bound: number): Promise<void> {
  return new Promise((resolve) => {
    let accepted = false;
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
