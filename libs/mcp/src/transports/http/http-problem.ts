import type { ServerResponse } from 'node:http';

/** Answers with an RFC 9457 problem document, with any extension members. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
  extensions: Readonly<Record<string, unknown>> = {},
): void {
  send(
    res,
    status,
    'application/problem+json',
    { ...extensions, type: 'about:blank', title, status, detail },
    headers,
  );
}

/**
 * `sendProblem`, with the answer written in full at once but the response
 * ended by `end` (given `res`), e.g. once the request's body is drained.
 */
export function sendProblemThenEnd(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Readonly<Record<string, string>>,
  end: (res: ServerResponse) => void,
): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.write(body);
  end(res);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
): void {
  send(res, status, 'application/json', payload);
}

/** Answers with JSON already written. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendText(res, status, 'application/json', body, headers);
}

/**
 * Answers with JSON written in parts (a prepared result's bytes between
 * the envelope's), without copying them into one buffer.
 */
export function sendJsonParts(
  res: ServerResponse,
  status: number,
  parts: readonly (string | Buffer)[],
): void {
  let length = 0;
  for (const part of parts) {
    length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  }
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': length,
  });
  res.cork();
  for (const part of parts.slice(0, -1)) {
    res.write(part);
  }
  res.end(parts[parts.length - 1]);
  res.uncork();
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  payload: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendText(res, status, contentType, JSON.stringify(payload), headers);
}

function sendText(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
