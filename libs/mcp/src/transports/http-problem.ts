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
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  payload: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
