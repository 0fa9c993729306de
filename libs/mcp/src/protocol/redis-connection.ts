import type { Logger } from '@nestjs/common';

/** The optional peer every Redis connection of the module is made with. */
const IOREDIS = 'ioredis';

/** What the module uses of any ioredis client: connecting and leaving. */
export interface RedisLink {
  connect(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** ioredis's client class, typed as what its caller uses of it. */
export type RedisConstructor<Client extends RedisLink> = new (
  url: string,
  options: Record<string, unknown>,
) => Client;

/**
 * ioredis's client class, from `load` (a `require` of ioredis, named
 * literally by the caller so that bundlers see an optional dependency), or
 * a startup error saying to install it.
 */
export function loadRedis<Client extends RedisLink>(
  load: () => unknown,
): RedisConstructor<Client> {
  const loaded = loadPeer(IOREDIS, load) as
    { Redis?: RedisConstructor<Client> } | undefined;
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

/**
 * A connection to `url` made at once, or a startup error naming the server
 * (without its password); once up, a lost connection is logged on `logger`
 * (once until it is back, as what failed `purpose`) and retried.
 */
export async function connectRedis<Client extends RedisLink>(
  Redis: RedisConstructor<Client>,
  url: string,
  options: Record<string, unknown>,
  logger: Logger,
  purpose: string,
): Promise<Client> {
  const client = new Redis(url, { ...options, lazyConnect: true });
  let failure: Error | undefined;
  let up = false;
  client.on('error', (error) => {
    failure = error;
    if (up) {
      up = false;
      logger.warn(
        `The connection to Redis ${purpose} failed: ${error.message}`,
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
      `McpModule's redis option: cannot connect to ${redacted(url)}: ${(failure ?? (error as Error)).message}`,
      { cause: error },
    );
  }
  return client;
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
