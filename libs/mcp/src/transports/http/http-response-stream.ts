import type { ResponseStream } from '@nestops/operations/internal';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { JsonRpcResponse } from '../../json-rpc/json-rpc.types.js';
import { answerText } from '../../protocol/answer-text.js';
import { callerDigest } from '../../protocol/answer-relay.js';
import type { Resumption } from '../../resumption/resumption.js';
import type { StreamRecorder } from '../../resumption/stream-recorder.js';
import { closeEarly, connected, SSE_HEADERS, sseEvent } from './sse-events.js';

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

/** What makes a POST's SSE stream resumable: the resumption, and whose stream it is. */
export interface ResumableBy {
  readonly resumption: Resumption;
  /** The caller (`McpTransport.peer`): only it can resume the stream. */
  readonly peer: string;
}

/**
 * The response stream of one POST. The first message a call sends turns the
 * answer into `text/event-stream` (status 200): each message is an SSE
 * `message` event, and so is the final answer, after which the stream
 * ends. Where the POST's `Accept` does not list `text/event-stream`, the
 * stream is closed and the messages are dropped; a call that sends nothing
 * is answered as plain JSON (and its `Accept` is never read).
 *
 * A resumable stream (`resumable`) keeps each event with its id: once it
 * has started, it stays open when its connection drops (or is closed
 * early, `closeAfterMs`), so the call runs on and its client can resume
 * it with `GET` and `Last-Event-ID`.
 */
export class HttpResponseStream implements ResponseStream {
  private started = false;
  private finished = false;
  /** Whether the POST accepts an SSE answer: read when first asked. */
  private accepted?: boolean;
  /** Where the events are kept, once a resumable stream has started. */
  private recorder?: StreamRecorder;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: IncomingHttpHeaders,
    private readonly resumable?: ResumableBy,
  ) {}

  get open(): boolean {
    this.accepted ??= acceptsEventStream(this.headers);
    return (
      this.accepted &&
      !this.finished &&
      (this.recorder !== undefined || !this.res.destroyed)
    );
  }

  send(message: Readonly<Record<string, unknown>>): void {
    if (!this.open) {
      return;
    }
    if (!this.started) {
      this.start();
    }
    const text = answerText(message);
    const id = this.recorder?.record(text);
    if (connected(this.res)) {
      this.res.write(sseEvent(text, id));
    }
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
    const text = answer === undefined ? undefined : answerText(answer);
    const id = text === undefined ? undefined : this.recorder?.record(text);
    this.recorder?.end();
    if (connected(this.res)) {
      this.res.end(text === undefined ? undefined : sseEvent(text, id));
    }
    return true;
  }

  private start(): void {
    this.started = true;
    this.res.writeHead(200, SSE_HEADERS);
    if (this.resumable) {
      const { resumption, peer } = this.resumable;
      this.recorder = resumption.record(callerDigest(peer));
      const { closeAfterMs, retryMs } = resumption.settings;
      closeEarly(this.res, closeAfterMs, retryMs);
    }
  }
}
