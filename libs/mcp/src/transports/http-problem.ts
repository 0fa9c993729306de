import type { ServerResponse } from 'node:http';

/** Answers with an RFC 9457 problem document. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
