import { Logger } from '@nestjs/common';
import type { AnswerRelay, RelayedAnswer } from './answer-relay.js';
import {
  connectRedis,
  loadRedis,
  type RedisConstructor,
  type RedisLink,
} from './redis-connection.js';

/** The `redis` option with its defaults applied. */
export interface McpRedisSettings {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  readonly url: string;
  /** The start of every channel name; each instance listens on its own. */
  readonly channelPrefix: string;
}

/** What the relay uses of an ioredis client. */
interface RedisClient extends RedisLink {
  subscribe(channel: string): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  on(event: 'message', listener: (channel: string, text: string) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'ready', listener: () => void): void;
}

/**
 * The relay over Redis pub/sub: an answer for another instance is
 * published on that instance's channel (`channelPrefix` and its id), where
 * it listens with a connection of its own. `load` is a `require` of
 * ioredis, named literally so that bundlers see an optional dependency.
 */
export class RedisAnswerRelay implements AnswerRelay {
  private readonly logger = new Logger('McpModule');
  private readonly Redis: RedisConstructor<RedisClient>;
  private readonly clients: RedisClient[] = [];
  private publisher?: RedisClient;

  constructor(
    private readonly settings: McpRedisSettings,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with the option
    load: () => unknown = () => require('ioredis'),
  ) {
    this.Redis = loadRedis(load);
  }

  async listen(
    instance: string,
    deliver: (answer: RelayedAnswer) => void,
  ): Promise<void> {
    const channel = this.channelOf(instance);
    const subscriber = await this.connect();
    subscriber.on('message', (from, text) => {
      const answer = from === channel ? parseAnswer(text) : undefined;
      if (answer) {
        deliver(answer);
      }
    });
    await subscriber.subscribe(channel);
    this.publisher = await this.connect();
  }

  async publish(instance: string, answer: RelayedAnswer): Promise<boolean> {
    if (!this.publisher) {
      throw new Error('the Redis relay is not listening');
    }
    const heard = await this.publisher.publish(
      this.channelOf(instance),
      JSON.stringify(answer),
    );
    return heard > 0;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.quit()));
  }

  private channelOf(instance: string): string {
    return `${this.settings.channelPrefix}${instance}`;
  }

  /** A connection made at once (see `connectRedis`). */
  private async connect(): Promise<RedisClient> {
    const client = await connectRedis(
      this.Redis,
      this.settings.url,
      { maxRetriesPerRequest: 1 },
      this.logger,
      'for answers between instances',
    );
    this.clients.push(client);
    return client;
  }
}

/** A relayed answer as it was published, or undefined when it is not one. */
function parseAnswer(text: string): RelayedAnswer | undefined {
  try {
    const answer = JSON.parse(text) as Partial<RelayedAnswer> | null;
    return typeof answer?.id === 'string' && typeof answer.caller === 'string'
      ? (answer as RelayedAnswer)
      : undefined;
  } catch {
    return undefined;
  }
}
