import type { IncomingMessage, ServerResponse } from 'node:http';
import { callerDigest } from '../../protocol/answer-relay.js';
import { eventIdOf, parseEventId } from '../../resumption/event-id.js';
import type { Resumption } from '../../resumption/resumption.js';
import { resumeStream } from '../../resumption/stream-resumer.js';
import { callerOf, type PrincipalIdOf } from './http-caller.js';
import { acceptsEventStream } from './http-response-stream.js';
import { sendProblem } from './http-problem.js';
import { closeEarly, connected, SSE_HEADERS, sseEvent } from './sse-events.js';

/**
 * `GET <path>` with `Last-Event-ID`: resumes the SSE stream of a 2025
 * POST after the event it names, for the caller that opened it (by
 * `callerOf`, as its POST was keyed): the events kept after it, then each
 * new one, until the call's answer, which ends the response. A stream
 * unknown, expired, outgrown or another caller's is `404`, the same for
 * each. The connection is closed early as the POST's was (`closeAfterMs`).
 */
export class HttpResume {
  constructor(
    private readonly resumption: Resumption,
    private readonly principalId: PrincipalIdOf,
  ) {}

  /** Whether `req` asks to resume a stream (it has a `Last-Event-ID`). */
  static asks(req: IncomingMessage): boolean {
    return req.method === 'GET' && req.headers['last-event-id'] !== undefined;
  }

  /** Serves `req`, whose app's view (`request`) holds its principal. */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    request: { user?: unknown },
  ): Promise<void> {
    if (!acceptsEventStream(req.headers)) {
      return sendProblem(
        res,
        406,
        'Not Acceptable',
        'A stream is resumed as text/event-stream: list it in Accept.',
      );
    }
    const named = parseEventId(String(req.headers['last-event-id']));
    const owner = callerDigest(
      callerOf(
        request.user,
        this.principalId,
        req.headers,
        req.socket.remoteAddress,
      ),
    );
    const head = (): void => {
      if (!res.headersSent) {
        res.writeHead(200, SSE_HEADERS);
        const { closeAfterMs, retryMs } = this.resumption.settings;
        closeEarly(res, closeAfterMs, retryMs);
      }
    };
    const stop =
      named &&
      (await resumeStream(
        this.resumption.store,
        named.streamId,
        owner,
        named.seq,
        {
          event: ({ seq, data }) => {
            head();
            if (connected(res)) {
              res.write(sseEvent(data, eventIdOf(named.streamId, seq)));
            }
          },
          end: () => {
            head();
            res.end();
          },
        },
      ));
    if (!stop) {
      return sendProblem(
        res,
        404,
        'Not Found',
        'No stream of this caller has that event id (unknown, or expired).',
      );
    }
    head();
    if (!connected(res)) {
      stop();
      return;
    }
    res.flushHeaders();
    res.once('close', stop);
  }
}
