import { type Agent, request } from 'node:http';
import type { HeaderMap, RpcBody, ToolResult } from './json-rpc-shapes';

/**
 * JSON-RPC to an app's MCP endpoint over real HTTP, as the raw-HTTP tests
 * send it: `postMcp` (a message or a batch, as JSON), `postMcpText` (a body
 * sent as it is: malformed JSON, ids JSON.parse would round), `sendExact`
 * (node:http: exactly the headers given, the framing the test chooses),
 * `rpc` (a request by method and params) and `rpcResult` / `callTool` (one
 * that must be answered with a result).
 * Each sends `Content-Type: application/json` and the headers of the call,
 * nothing else of its own.
 */

/** The Accept header of a Streamable HTTP client. */
export const ACCEPT_BOTH = {
  accept: 'application/json, text/event-stream',
} as const;

/** The Content-Type of a JSON-RPC POST. */
export const JSON_TYPE = { 'content-type': 'application/json' } as const;

/** An HTTP answer: its status, headers and body text. */
export interface McpReply {
  readonly status: number;
  readonly text: string;
  /** A response header; a repeated one joined with `, `. */
  header(name: string): string | undefined;
  /** The body, parsed. */
  json<T = RpcBody>(): T;
}

export interface PostOptions {
  /** The endpoint's path; `/mcp` by default. */
  readonly path?: string;
}

/** A JSON-RPC request (`params` left out when not given). */
export function rpcRequest(
  id: string | number,
  method: string,
  params?: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** POSTs `message` as JSON (an array is a batch) to the endpoint, with `headers`. */
export function postMcp(
  baseUrl: string,
  message: object | number | boolean | null,
  headers: HeaderMap = {},
  options: PostOptions = {},
): Promise<McpReply> {
  return postMcpText(baseUrl, JSON.stringify(message), headers, options);
}

/** POSTs `text` as the body, as it is, to the endpoint, with `headers`. */
export async function postMcpText(
  baseUrl: string,
  text: string,
  headers: HeaderMap = {},
  options: PostOptions = {},
): Promise<McpReply> {
  const response = await fetch(`${baseUrl}${options.path ?? '/mcp'}`, {
    method: 'POST',
    headers: { ...JSON_TYPE, ...headers },
    body: text,
  });
  return reply(
    response.status,
    await response.text(),
    (name) => response.headers.get(name) ?? undefined,
  );
}

let nextId = 1;

/**
 * One request `method` (the next id of this process) with `params`, sent
 * as a Streamable HTTP client sends it (Accept: JSON and SSE), plus `headers`.
 */
export function rpc(
  baseUrl: string,
  method: string,
  params?: Readonly<Record<string, unknown>>,
  headers: HeaderMap = {},
): Promise<McpReply> {
  return postMcp(baseUrl, rpcRequest(nextId++, method, params), {
    ...ACCEPT_BOTH,
    ...headers,
  });
}

/** `rpc`, and its result; throws unless it is answered with 200 and a result. */
export async function rpcResult<T>(
  baseUrl: string,
  method: string,
  params?: Readonly<Record<string, unknown>>,
  headers: HeaderMap = {},
): Promise<T> {
  const reply = await rpc(baseUrl, method, params, headers);
  if (reply.status !== 200) {
    throw new Error(`${method}: HTTP ${reply.status} ${reply.text}`);
  }
  const { result } = reply.json<{ result?: T }>();
  if (!result) {
    throw new Error(`${method}: no result in ${reply.text}`);
  }
  return result;
}

/** One `tools/call` of `name`; throws unless it is answered with a result. */
export function callTool(
  baseUrl: string,
  name: string,
  args: Readonly<Record<string, unknown>> = {},
  headers: HeaderMap = {},
): Promise<ToolResult> {
  return rpcResult<ToolResult>(
    baseUrl,
    'tools/call',
    { name, arguments: args },
    headers,
  );
}

/** The JSON of a successful call's text content. */
export function resultJson<T>(result: ToolResult): T {
  if (result.isError) {
    throw new Error(`The call failed: ${result.content[0]?.text}`);
  }
  return JSON.parse(result.content[0].text) as T;
}

/** The text of a failed call. */
export function errorText(result: ToolResult): string {
  if (!result.isError) {
    throw new Error(`The call succeeded: ${result.content[0]?.text}`);
  }
  return result.content[0].text;
}

export interface ExactRequest {
  /** `POST` by default. */
  readonly method?: string;
  /** `/mcp` by default. */
  readonly path?: string;
  /** Exactly the headers sent, beside the framing (`Content-Length` unless `chunked`). */
  readonly headers: HeaderMap;
  /** The body; an array is written piece by piece. */
  readonly body?: string | readonly string[];
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length. */
  readonly chunked?: boolean;
  /** The connection pool (a keep-alive agent); Node's global agent by default. */
  readonly agent?: Agent;
}

/**
 * A request through node:http, for what fetch decides by itself: exactly
 * the headers given (no Accept or User-Agent of its own), the framing
 * (Content-Length or chunked), the connection it goes on. An answer that
 * comes before the whole body is sent (a 413) is the reply; a connection
 * cut before any answer rejects.
 */
export function sendExact(
  baseUrl: string,
  options: ExactRequest,
): Promise<McpReply> {
  const pieces = [options.body ?? ''].flat();
  const framing: Record<string, string> = options.chunked
    ? { 'transfer-encoding': 'chunked' }
    : { 'content-length': String(Buffer.byteLength(pieces.join(''))) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      `${baseUrl}${options.path ?? '/mcp'}`,
      {
        method: options.method ?? 'POST',
        headers: { ...framing, ...options.headers },
        agent: options.agent,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve(
            reply(
              res.statusCode ?? 0,
              Buffer.concat(chunks).toString('utf8'),
              (name) => {
                const value = res.headers[name.toLowerCase()];
                return Array.isArray(value) ? value.join(', ') : value;
              },
            ),
          ),
        );
      },
    );
    req.on('error', (error) => {
      if (!answered) {
        reject(error);
      }
    });
    const step = 64 * 1024;
    for (const piece of pieces) {
      const bytes = Buffer.from(piece, 'utf8');
      for (let offset = 0; offset < bytes.length; offset += step) {
        req.write(bytes.subarray(offset, offset + step));
      }
    }
    req.end();
  });
}

function reply(
  status: number,
  text: string,
  header: (name: string) => string | undefined,
): McpReply {
  return {
    status,
    text,
    header,
    json: <T>() => JSON.parse(text) as T,
  };
}

/**
 * The JSON-RPC messages of an SSE answer, one per `message` event; each
 * event must be `event: message` and one `data:` line.
 */
export function sseEvents<T = unknown>(text: string): T[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      if (lines.length !== 2 || lines[0] !== 'event: message') {
        throw new Error(`Not one message event with one data line: ${block}`);
      }
      return JSON.parse(lines[1].replace(/^data: /, '')) as T;
    });
}

/**
 * A `POST /mcp` with `message` as its JSON body, as the bytes of an
 * HTTP/1.1 request (keep-alive, `Content-Length`), for a raw socket; each
 * of `headers` is added as it is.
 */
export function rawMcpPost(
  message: object,
  headers: Readonly<Record<string, string>> = {},
): string {
  const body = JSON.stringify(message);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    `${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
