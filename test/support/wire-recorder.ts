import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request a client sent, as it crossed the wire. */
export interface WireRequest {
  /** `POST`, `GET`, `DELETE`, ... */
  readonly httpMethod: string;
  /** The JSON-RPC `method` of a POSTed message (each one of a batch). */
  readonly rpcMethods: readonly string[];
  /** `params._meta["io.modelcontextprotocol/protocolVersion"]` of a single message. */
  readonly metaVersion?: unknown;
  readonly headers: IncomingHttpHeaders;
  /** The status the app answered with. */
  status?: number;
}

export interface WireRecorder {
  /** `http://127.0.0.1:<port>`: point the client here instead of at the app. */
  readonly baseUrl: string;
  readonly requests: WireRequest[];
  /** The JSON-RPC methods of every POST so far, in order. */
  rpcMethods(): string[];
  close(): Promise<void>;
}

function describe(
  text: string,
): Pick<WireRequest, 'rpcMethods' | 'metaVersion'> {
  try {
    const body: unknown = JSON.parse(text);
    const messages = (Array.isArray(body) ? body : [body]) as {
      method?: unknown;
      params?: { _meta?: Record<string, unknown> };
    }[];
    return {
      rpcMethods: messages.map((message) => String(message?.method)),
      metaVersion: Array.isArray(body)
        ? undefined
        : messages[0]?.params?._meta?.[
            'io.modelcontextprotocol/protocolVersion'
          ],
    };
  } catch {
    return { rpcMethods: [] };
  }
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `targetBaseUrl` that
 * records what each client puts on the wire (methods, headers) and what
 * status it gets back, so a test can see, for instance, that a client never
 * sent `initialize`.
 */
export async function startWireRecorder(
  targetBaseUrl: string,
): Promise<WireRecorder> {
  const target = new URL(targetBaseUrl);
  const requests: WireRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: WireRequest = {
        httpMethod: req.method ?? '',
        headers: req.headers,
        ...(req.method === 'POST'
          ? describe(body.toString('utf8'))
          : { rpcMethods: [] }),
      };
      requests.push(record);
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          record.status = answer.statusCode;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    rpcMethods: () => requests.flatMap((each) => each.rpcMethods),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
