import type { AnswerRelay, RelayedAnswer } from './answer-relay.js';
import { type RedisConnection, RedisConnections } from './redis-connections.js';

/** The `redis` option with its defaults applied. */
export interface McpRedisSettings {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  readonly url: string;
  /** The start of every channel name; each instance listens on its own. */
  readonly channelPrefix: string;
}

/** What the relay uses of an ioredis client. */
interface RedisClient extends RedisConnection {
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
 * ioredis (see `RedisConnections`).
 */
export class RedisAnswerRelay implements AnswerRelay {
  private readonly connections: RedisConnections;
  private publisher?: RedisClient;

  constructor(
    private readonly settings: McpRedisSettings,
    load?: () => unknown,
  ) {
    this.connections = new RedisConnections(
      settings.url,
      'answers between instances',
      load,
    );
  }

  async listen(
    instance: string,
    deliver: (answer: RelayedAnswer) => void,
  ): Promise<void> {
    const channel = this.channelOf(instance);
    const subscriber = await this.connections.connect<RedisClient>();
    subscriber.on('message', (from, text) => {
      const answer = from === channel ? parseAnswer(text) : undefined;
      if (answer) {
        deliver(answer);
      }
    });
    await subscriber.subscribe(channel);
    this.publisher = await this.connections.connect<RedisClient>();
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

  close(): Promise<void> {
    return this.connections.close();
  }

  private channelOf(instance: string): string {
    return `${this.settings.channelPrefix}${instance}`;
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
