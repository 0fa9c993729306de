import { Logger } from '@nestjs/common';

/** The optional peer the connections are made with. */
const IOREDIS = 'ioredis';

/** What every user of a connection needs of an ioredis client. */
export interface RedisConnection {
  connect(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'ready', listener: () => void): void;
  quit(): Promise<unknown>;
  disconnect(): void;
}

type RedisConstructor = new (
  url: string,
  options: Record<string, unknown>,
) => RedisConnection;

/**
 * The Redis connections of one user of the `redis` option (`purpose`
 * names it in logs): each made at once, or a startup error naming the
 * server; once up, a lost connection is logged (once until it is back)
 * and retried. `load` is a `require` of ioredis, named literally so that
 * bundlers see an optional dependency.
 */
export class RedisConnections {
  private readonly logger = new Logger('McpModule');
  private readonly Redis: RedisConstructor;
  private readonly clients: RedisConnection[] = [];

  constructor(
    private readonly url: string,
    /** What the connections are for, as log lines say it: "answers between instances". */
    private readonly purpose: string,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with the option
    load: () => unknown = () => require('ioredis'),
  ) {
    this.Redis = loadRedis(load);
  }

  /**
   * A new connection, typed as its user sees an ioredis client, with
   * ioredis `options` beside the defaults (`maxRetriesPerRequest: 1`).
   */
  async connect<C extends RedisConnection>(
    options: Record<string, unknown> = {},
  ): Promise<C> {
    const client = new this.Redis(this.url, {
      maxRetriesPerRequest: 1,
      ...options,
      lazyConnect: true,
    });
    let failure: Error | undefined;
    let up = false;
    client.on('error', (error) => {
      failure = error;
      if (up) {
        up = false;
        this.logger.warn(
          `The connection to Redis for ${this.purpose} failed: ${error.message}`,
        );
      }
    });
    client.on('ready', () => {
      up = true;
    });
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw new Error(
        `McpModule's redis option: cannot connect to ${redacted(this.url)}: ${(failure ?? (error as Error)).message}`,
        { cause: error },
      );
    }
    this.clients.push(client);
    return client as C;
  }

  /** Lets every connection go. */
  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.quit()));
  }
}

/** ioredis's client class, or a startup error saying to install it. */
function loadRedis(load: () => unknown): RedisConstructor {
  const loaded = loadPeer(IOREDIS, load) as
    { Redis?: RedisConstructor } | undefined;
  if (typeof loaded?.Redis === 'function') {
    return loaded.Redis;
  }
  throw new Error(
    `McpModule's redis option needs the ${IOREDIS} package (5 or 6): npm install ${IOREDIS}`,
  );
}

/** The optional peer `name` from `load`; undefined when it is not installed. */
export function loadPeer(name: string, load: () => unknown): unknown {
  try {
    return load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (
      code !== 'MODULE_NOT_FOUND' ||
      !String(message).split('\n')[0].includes(`'${name}'`)
    ) {
      throw error;
    }
    return undefined;
  }
}

/** The URL without its password, for an error message. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = '***';
    }
    return parsed.toString();
  } catch {
    return 'the Redis URL';
  }
}
