import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import { sendProblemThenEnd } from './http-problem.js';

/** The parsed body, as `bodyReader` left it: one store on the request. */
const BODY = Symbol('mcp:body');
/** A body that is not JSON. */
const NOT_JSON = Symbol('mcp:not-json');

/** A request as Express hands it over, with what the body reader adds. */
export type BodyRequest = IncomingMessage & {
  body?: unknown;
  [BODY]?: unknown;
};
export type Next = (error?: unknown) => void;

export class BodyTooLargeError extends Error {}

/** How long the rest of a refused body is read before its connection closes. */
const DRAIN_MS = 5_000;
/** The least a refused body's drain reads: 1 MiB. */
const DRAIN_FLOOR = 1_048_576;

/**
 * How much of a body refused under `limit` is read, in all, before its
 * connection closes: four times the limit, at least 1 MiB.
 */
export function drainBound(limit: number): number {
  return Math.max(4 * limit, DRAIN_FLOOR);
}

/**
 * Ends `res`, whose answer is written in full, once the rest of `req`'s
 * body has been read (at most `bound` bytes, declared or counted, within
 * 5 s), so that a client still sending reads the answer before the
 * connection closes rather than a reset; at once when no body is coming.
 */
export function endAfterBody(
  req: IncomingMessage,
  res: ServerResponse,
  bound: number,
): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (req.complete || req.readableEnded || req.destroyed || declared > bound) {
    res.end();
    return;
  }
  let read = 0;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
    res.end();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > bound) done();
  };
  const timer = setTimeout(done, DRAIN_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}

/**
 * Answers `413` for a body over `limit` and closes the connection; by
 * default once the rest of the body is read (up to `drainBound`), so a
 * client still sending reads it.
 */
export function answerTooLarge(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  end = (answered: ServerResponse) =>
    endAfterBody(req, answered, drainBound(limit)),
): void {
  sendProblemThenEnd(
    res,
    413,
    'Content Too Large',
    `The body exceeds ${limit} bytes.`,
    { Connection: 'close' },
    end,
  );
}

/**
 * Whether `req` declares a JSON body whose `Content-Length` is over
 * `limit`: refused before it is sent (see `answerExpectContinue`).
 */
export function declaresTooLarge(req: IncomingMessage, limit: number): boolean {
  return (
    isJsonRequest(req) && Number(req.headers['content-length'] ?? 0) > limit
  );
}

export function isJsonRequest(req: IncomingMessage): boolean {
  return /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '');
}

/**
 * Express middleware that reads a JSON body up to `limit` bytes and parses
 * it once for the endpoint; the stream is then finished, so the app's own
 * body parser (and its limit) skip this request; one over the limit is
 * answered `413` (`answerTooLarge`). A body that a parser ahead of Nest has
 * read already (an Express instance given to `ExpressAdapter`) is left to it.
 */
export function bodyReader(
  limit: number,
): (req: BodyRequest, res: ServerResponse, next: Next) => void {
  return (req, res, next) => {
    if (!isJsonRequest(req) || BODY in req || req.readableEnded) {
      return next();
    }
    readBody(req, limit).then(
      (text) => {
        req[BODY] = parse(text);
        next();
      },
      (error: unknown) =>
        error instanceof BodyTooLargeError
          ? answerTooLarge(req, res, limit)
          : next(error),
    );
  };
}

/**
 * The JSON-RPC content of a request: what `bodyReader` parsed (at once,
 * not as a promise), else the stream read and parsed now, else (another
 * parser consumed the stream) `req.body`. Throws `-32700` for a body that
 * is not JSON.
 */
export function bodyMessage(req: BodyRequest, limit: number): unknown {
  if (BODY in req) {
    return jsonMessage(req[BODY]);
  }
  return req.readableEnded
    ? jsonMessage(req.body === undefined ? NOT_JSON : req.body)
    : readBody(req, limit).then((text) => jsonMessage(parse(text)));
}

function jsonMessage(message: unknown): unknown {
  if (message === NOT_JSON) {
    throw McpProtocolError.parse();
  }
  return message;
}

/**
 * Reads a request body up to `limit` bytes, as UTF-8 text; refuses one
 * whose `Content-Length` is over it at once, without waiting for it.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      req.resume();
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
