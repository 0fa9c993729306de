import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Bounds the shutdown of an HTTP server's keep-alive connections. Once
 * draining (or once `closing()` says so), every response that has not
 * started yet goes out with `Connection: close`, so a busy keep-alive
 * connection ends after the answer under way instead of taking request
 * after request; idle ones are closed by `server.close()` (Node 19 and
 * later), which stops accepting connections. Connections still open when the
 * grace period ends are destroyed, so `server.close()` can complete.
 */
export class ConnectionDrain {
  private readonly pending = new Set<ServerResponse>();
  private draining = false;
  private deadline?: NodeJS.Timeout;

  constructor(
    private readonly server: Server,
    private readonly closing: () => boolean,
  ) {
    server.prependListener('request', (_req, res) => this.track(res));
    server.on('close', () => clearTimeout(this.deadline));
  }

  /** Whether `begin` was called or the app is closing. */
  isDraining(): boolean {
    return this.draining || this.closing();
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
