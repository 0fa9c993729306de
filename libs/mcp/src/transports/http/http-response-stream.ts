import type { ResponseStream } from '@nestops/operations/internal';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { JsonRpcResponse } from '../../json-rpc/json-rpc.types.js';
import { answerText } from '../../protocol/answer-text.js';

/**
 * Whether a POST's `Accept` lists `text/event-stream` (with a `q` above 0).
 * Only an explicit listing counts: Streamable HTTP clients list it beside
 * `application/json`, while a wildcard (`*\/*`, which curl sends) is a
 * caller that expects the JSON answer.
 */
export function acceptsEventStream(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  if (accept === undefined) {
    return false;
  }
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim());
    if (type.toLowerCase() !== 'text/event-stream') {
      return false;
    }
    const q = params.find((param) => /^q=/i.test(param));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The response stream of one POST. The first message a call sends turns the
 * answer into `text/event-stream` (status 200): each message is an SSE
 * `message` event, and so is the final answer, after which the stream
 * ends. Where the POST's `Accept` does not list `text/event-stream`, the
 * stream is closed and the messages are dropped; a call that sends nothing
 * is answered as plain JSON (and its `Accept` is never read).
 */
export class HttpResponseStream implements ResponseStream {
  private started = false;
  private finished = false;
  /** Whether the POST accepts an SSE answer: read when first asked. */
  private accepted?: boolean;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: IncomingHttpHeaders,
  ) {}

  get open(): boolean {
    this.accepted ??= acceptsEventStream(this.headers);
    return this.accepted && !this.finished && !this.res.destroyed;
  }

  send(message: Readonly<Record<string, unknown>>): void {
    if (!this.open) {
      return;
    }
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        // nginx passes each event on at once instead of buffering the answer.
        'X-Accel-Buffering': 'no',
      });
    }
    this.res.write(event(answerText(message)));
  }

  /**
   * Closes the stream to later messages. When it has started, writes
   * `answer` as its last event, ends it and returns true; otherwise
   * returns false: the answer is the carrier's to send as JSON.
   */
  finish(answer: JsonRpcResponse | undefined): boolean {
    this.finished = true;
    if (!this.started) {
      return false;
    }
    if (answer !== undefined) {
      this.res.end(event(answerText(answer)));
    } else {
      this.res.end();
    }
    return true;
  }
}

/** One SSE event: JSON text holds no line break, so one `data` line. */
function event(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}
