import type { NextFunction, Request, Response } from 'express';

/**
 * Refuses every request once the process is told to stop: `503` with
 * `Retry-After` and `Connection: close`, before any guard, pipe or handler
 * runs, so no write starts after shutdown began. Requests already past the
 * gate finish within McpModule's `shutdownGracePeriod`.
 */
export class ShutdownGate {
  private closed = false;

  /** Express middleware; apply it before the app's routes. */
  readonly middleware = (
    _req: Request,
    res: Response,
    next: NextFunction,
  ): void => {
    if (!this.closed) {
      return next();
    }
    res
      .status(503)
      .set({ 'Retry-After': '1', Connection: 'close' })
      .type('application/problem+json')
      .send(
        JSON.stringify({
          type: 'about:blank',
          title: 'Service Unavailable',
          status: 503,
          detail: 'The application is shutting down.',
        }),
      );
  };

  /**
   * Closes the gate on the first of `signals`. Register after
   * `enableShutdownHooks()`: Nest's handler then starts `app.close()`, and
   * this one closes the gate in the same turn, before any request is read.
   */
  closeOn(signals: readonly string[]): void {
    const close = (): void => {
      this.closed = true;
      signals.forEach((signal) => process.removeListener(signal, close));
    };
    signals.forEach((signal) => process.once(signal, close));
  }
}
