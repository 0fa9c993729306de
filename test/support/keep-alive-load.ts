import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export type WriteKind = 'mcp' | 'rest';

/** One write as a client saw it; times from `performance.now()`. */
export interface WriteOutcome {
  readonly kind: WriteKind;
  readonly sentAt: number;
  readonly doneAt: number;
  readonly status?: number;
  readonly headers?: IncomingHttpHeaders;
  /** The created order's id when the write was acknowledged. */
  readonly orderId?: number;
  readonly error?: string;
}

export interface LoadOptions {
  readonly baseUrl: string;
  readonly tenant: string;
  readonly clients: number;
}

/**
 * Keep-alive clients sending `orders_create` tool calls and REST
 * `POST /orders` back to back (alternating per client) until `stop()`.
 */
export class KeepAliveLoad {
  readonly outcomes: WriteOutcome[] = [];
  /** How many clients have had an answer (each on its own connection). */
  answeredClients = 0;
  private readonly agent: Agent;
  private stopped = false;
  private readonly loops: Promise<void>[];
  private sequence = 0;

  constructor(private readonly options: LoadOptions) {
    this.agent = new Agent({ keepAlive: true, maxSockets: options.clients });
    this.loops = Array.from({ length: options.clients }, (_, index) =>
      this.loop(index % 2 === 0 ? 'mcp' : 'rest'),
    );
  }

  /** Stops sending and waits for the requests under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.agent.destroy();
  }

  private async loop(kind: WriteKind): Promise<void> {
    let answered = false;
    while (!this.stopped) {
      const outcome = await this.send(kind);
      this.outcomes.push(outcome);
      if (!answered && outcome.status !== undefined) {
        answered = true;
        this.answeredClients += 1;
      }
      if (outcome.error !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }

  private send(kind: WriteKind): Promise<WriteOutcome> {
    const n = ++this.sequence;
    const order = { name: `load-${n}`, amount: 1 + (n % 100) };
    const body = JSON.stringify(
      kind === 'rest'
        ? order
        : {
            jsonrpc: '2.0',
            id: n,
            method: 'tools/call',
            params: { name: 'orders_create', arguments: order },
          },
    );
    const sentAt = performance.now();
    return new Promise((resolve) => {
      const req = request(
        `${this.options.baseUrl}${kind === 'rest' ? '/orders' : '/mcp'}`,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Authorization: 'ApiKey dev-alice-key',
            'X-Tenant-Id': this.options.tenant,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) =>
            resolve({
              kind,
              sentAt,
              doneAt: performance.now(),
              error: error.message,
            }),
          );
          res.on('end', () =>
            resolve({
              kind,
              sentAt,
              doneAt: performance.now(),
              status: res.statusCode,
              headers: res.headers,
              orderId: createdId(kind, res.statusCode, Buffer.concat(chunks)),
            }),
          );
        },
      );
      req.on('error', (error) =>
        resolve({
          kind,
          sentAt,
          doneAt: performance.now(),
          error: error.message,
        }),
      );
      req.end(body);
    });
  }
}

function createdId(
  kind: WriteKind,
  status: number | undefined,
  body: Buffer,
): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (kind === 'rest') {
      return status === 201 ? idOf(parsed) : undefined;
    }
    const result = (
      parsed as { result?: { isError?: boolean; structuredContent?: unknown } }
    ).result;
    return status === 200 && result && !result.isError
      ? idOf(result.structuredContent)
      : undefined;
  } catch {
    return undefined;
  }
}

function idOf(value: unknown): number | undefined {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' ? id : undefined;
}
