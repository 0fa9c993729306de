import { type ClientRequest, request } from 'node:http';

/** One SSE block as it came: its fields, parsed. */
export interface SseBlock {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly retry?: number;
}

/** An SSE response being read block by block, over a connection of its own. */
export interface SseReading {
  readonly status: number;
  readonly header: (name: string) => string | undefined;
  /** The next block; undefined once the response ended (or was dropped). */
  next(): Promise<SseBlock | undefined>;
  /** Every block until the end. */
  rest(): Promise<SseBlock[]>;
  /** The whole body, once it ended (for a non-SSE answer). */
  text(): Promise<string>;
  /** Cuts the connection, as a network failure would. */
  drop(): void;
}

/** Parses SSE blocks out of `text`; returns them and what is left. */
function parse(text: string): [SseBlock[], string] {
  const parts = text.split('\n\n');
  const left = parts.pop()!;
  const blocks = parts.map((part) => {
    const block: Record<string, string | number> = {};
    for (const line of part.split('\n')) {
      const colon = line.indexOf(': ');
      const [field, value] =
        colon === -1
          ? [line, '']
          : [line.slice(0, colon), line.slice(colon + 2)];
      block[field] = field === 'retry' ? Number(value) : value;
    }
    return block as SseBlock;
  });
  return [blocks, left];
}

/**
 * Sends a request through node:http (its own connection: `agent: false`)
 * and reads its answer as SSE as it arrives.
 */
export function openSse(
  baseUrl: string,
  options: {
    readonly method?: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: object;
  },
): Promise<SseReading> {
  const body = options.body === undefined ? '' : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req: ClientRequest = request(
      `${baseUrl}/mcp`,
      {
        method: options.method ?? 'POST',
        agent: false,
        headers: {
          ...options.headers,
          ...(body
            ? { 'content-length': String(Buffer.byteLength(body)) }
            : {}),
        },
      },
      (res) => {
        answered = true;
        const queue: SseBlock[] = [];
        const waiting: Array<(block: SseBlock | undefined) => void> = [];
        let buffer = '';
        let all = '';
        let ended = false;
        const finish = () => {
          ended = true;
          for (const wake of waiting.splice(0)) wake(undefined);
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          all += chunk;
          const [blocks, left] = parse(buffer + chunk);
          buffer = left;
          for (const block of blocks) {
            const wake = waiting.shift();
            if (wake) wake(block);
            else queue.push(block);
          }
        });
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
        const next = () =>
          queue.length > 0
            ? Promise.resolve(queue.shift())
            : ended
              ? Promise.resolve(undefined)
              : new Promise<SseBlock | undefined>((wake) => waiting.push(wake));
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          next,
          async rest() {
            const blocks: SseBlock[] = [];
            for (let block = await next(); block; block = await next()) {
              blocks.push(block);
            }
            return blocks;
          },
          async text() {
            while (!ended) await new Promise((wake) => setTimeout(wake, 5));
            return all;
          },
          drop() {
            req.destroy();
            finish();
          },
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}
