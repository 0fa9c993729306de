import type { IncomingMessage, ServerResponse } from 'node:http';

const RAW_BODY = Symbol('mcp:raw-body');

/** A request as Express hands it over, with what the body reader adds. */
export type BodyRequest = IncomingMessage & {
  body?: unknown;
  [RAW_BODY]?: string;
};
export type Next = (error?: unknown) => void;

export class BodyTooLargeError extends Error {}

export function isJsonRequest(req: IncomingMessage): boolean {
  return /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '');
}

/**
 * Express middleware that reads a JSON body up to `limit` bytes, keeps its
 * text for the endpoint and leaves the parsed value in `req.body`, so the
 * app's own body parser (and its limit) skip this request.
 */
export function bodyReader(
  limit: number,
  tooLarge: (res: ServerResponse) => void,
): (req: BodyRequest, res: ServerResponse, next: Next) => void {
  return (req, res, next) => {
    if (!isJsonRequest(req) || RAW_BODY in req) {
      return next();
    }
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      return tooLarge(res);
    }
    readBody(req, limit).then(
      (text) => {
        req[RAW_BODY] = text;
        req.body = parseOrUndefined(text);
        next();
      },
      (error: unknown) =>
        error instanceof BodyTooLargeError ? tooLarge(res) : next(error),
    );
  };
}

/**
 * The body text of a request: what `bodyReader` kept, else the stream read
 * now, else (another parser consumed the stream) `req.body` re-serialised.
 */
export async function bodyText(
  req: BodyRequest,
  limit: number,
): Promise<string> {
  if (req[RAW_BODY] !== undefined) {
    return req[RAW_BODY];
  }
  if (!req.readableEnded) {
    return readBody(req, limit);
  }
  return req.body === undefined ? '' : JSON.stringify(req.body);
}

/** Reads a request body up to `limit` bytes, as UTF-8 text. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
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

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
