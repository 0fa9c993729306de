import type { ServerResponse } from 'node:http';

/** The head of every SSE answer. */
export const SSE_HEADERS = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  // nginx passes each event on at once instead of buffering the answer.
  'X-Accel-Buffering': 'no',
});

/** One SSE `message` event, with its id if any: JSON text holds no line break, so one `data` line. */
export function sseEvent(json: string, id?: string): string {
  return id === undefined
    ? `event: message\ndata: ${json}\n\n`
    : `id: ${id}\nevent: message\ndata: ${json}\n\n`;
}

/** Whether `res` can still carry events: neither ended nor gone. */
export function connected(res: ServerResponse): boolean {
  return !res.writableEnded && !res.destroyed;
}

/**
 * Ends `res` (not its stream) `closeAfterMs` after now, with `retry:
 * retryMs`, so that its client reconnects with `Last-Event-ID` (SEP-1699);
 * nothing when `closeAfterMs` is undefined.
 */
export function closeEarly(
  res: ServerResponse,
  closeAfterMs: number | undefined,
  retryMs: number,
): void {
  if (closeAfterMs === undefined) {
    return;
  }
  const timer = setTimeout(() => {
    if (connected(res)) {
      res.end(`retry: ${retryMs}\n\n`);
    }
  }, closeAfterMs).unref();
  res.once('close', () => clearTimeout(timer));
}
