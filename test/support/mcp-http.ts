import { type Agent, request } from 'node:http';
import type { HeaderMap, RpcBody, ToolResult } from './json-rpc-shapes';
import { modernHeaders, type RpcMessage } from './modern-mcp';

/**
 * The two ways the raw-HTTP tests reach an app's MCP endpoint:
 * `mcpHttp(baseUrl)`, typed JSON-RPC over fetch (`post` a message, a batch
 * or a body as it is; `request`, `result` and `callTool` on top of it),
 * and `sendExact`, the bytes over node:http (exactly the headers given,
 * the framing the test chooses). `requestBytes` writes a request for a raw
 * socket.
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
  /** Send the headers a 2026-07-28 client sends with the message too. */
  readonly modern?: boolean;
}

/** A JSON-RPC request (`params` left out when not given). */
export function rpcRequest(
  id: string | number,
  method: string,
  params?: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
}

/** The typed JSON-RPC helper of one app's MCP endpoint. */
export interface McpHttp {
  /**
   * POSTs `message` as JSON (an array is a batch; a string is the body as
   * it is: malformed JSON, ids JSON.parse would round) with
   * `Content-Type: application/json` and `headers`, nothing else of its own.
   */
  post(
    message: object | string | number | boolean | null,
    headers?: HeaderMap,
    options?: PostOptions,
  ): Promise<McpReply>;
  /**
   * One request `method` (the next id of this process) with `params`, sent
   * as a Streamable HTTP client sends it (Accept: JSON and SSE), plus `headers`.
   */
  request(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    headers?: HeaderMap,
  ): Promise<McpReply>;
  /** `request`, and its result; throws unless answered with 200 and a result. */
  result<T>(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    headers?: HeaderMap,
  ): Promise<T>;
  /** One `tools/call` of `name`; throws unless answered with a result. */
  callTool(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    headers?: HeaderMap,
  ): Promise<ToolResult>;
}

let nextId = 1;

/** The typed JSON-RPC helper of the endpoint of the app at `baseUrl`. */
export function mcpHttp(baseUrl: string): McpHttp {
  const post: McpHttp['post'] = async (message, headers = {}, options = {}) => {
    const response = await fetch(`${baseUrl}${options.path ?? '/mcp'}`, {
      method: 'POST',
      headers: {
        ...JSON_TYPE,
        ...(options.modern ? modernHeaders(message as RpcMessage) : {}),
        ...headers,
      },
      body: typeof message === 'string' ? message : JSON.stringify(message),
    });
    return reply(
      response.status,
      await response.text(),
      (name) => response.headers.get(name) ?? undefined,
    );
  };
  const request: McpHttp['request'] = (method, params, headers = {}) =>
    post(rpcRequest(nextId++, method, params), { ...ACCEPT_BOTH, ...headers });
  const result = async <T>(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    headers: HeaderMap = {},
  ): Promise<T> => {
    const answer = await request(method, params, headers);
    if (answer.status !== 200) {
      throw new Error(`${method}: HTTP ${answer.status} ${answer.text}`);
    }
    const body = answer.json<{ result?: T }>();
    if (!body.result) {
      throw new Error(`${method}: no result in ${answer.text}`);
    }
    return body.result;
  };
  return {
    post,
    request,
    result,
    callTool: (name, args = {}, headers = {}) =>
      result<ToolResult>('tools/call', { name, arguments: args }, headers),
  };
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
 * event must be an optional `id:` line, `event: message` and one `data:` line.
 */
export function sseEvents<T = unknown>(text: string): T[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n').filter((line) => !/^id: /.test(line));
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
export function requestBytes(
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
