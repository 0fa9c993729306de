import { Logger } from '@nestjs/common';
import type { McpResumptionSettings } from '../options/resumption-options.resolver.js';
import {
  type RedisConnection,
  RedisConnections,
} from '../protocol/redis-connections.js';
import type {
  EventStore,
  StoredEvent,
  StreamNews,
  StreamReplay,
} from './event-store.js';

/** The commands of one Redis transaction the store sends. */
interface RedisMulti {
  set(key: string, value: string, px: 'PX', ms: number): RedisMulti;
  get(key: string): RedisMulti;
  rpush(key: string, value: string): RedisMulti;
  ltrim(key: string, start: number, stop: number): RedisMulti;
  lrange(key: string, start: number, stop: number): RedisMulti;
  pexpire(key: string, ms: number): RedisMulti;
  publish(channel: string, message: string): RedisMulti;
  exec(): Promise<[Error | null, unknown][] | null>;
}

/** What the store uses of an ioredis client. */
interface RedisClient extends RedisConnection {
  multi(): RedisMulti;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, text: string) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'ready', listener: () => void): void;
}

/** A list entry: an event (`s`, `d`), or the end of the stream. */
type Entry =
  { readonly s: number; readonly d: string } | { readonly end: true };

const END = JSON.stringify({ end: true });

/**
 * The streams of every instance, in Redis: stream `<keyPrefix><id>` is a
 * list of its latest `maxEventsPerStream` entries, beside its owner at
 * `<keyPrefix><id>:owner`; each entry is also published on channel
 * `<keyPrefix><id>`, which followers on any instance subscribe to. The
 * keys expire `retainMs` after the latest entry; the instance writing a
 * stream renews them until it ends.
 */
export class RedisEventStore implements EventStore {
  private readonly logger = new Logger('McpModule');
  private readonly connections: RedisConnections;
  private writer?: RedisClient;
  private subscriber?: RedisClient;
  /** The listeners of each followed channel, once subscribed. */
  private readonly followers = new Map<
    string,
    Promise<Set<(news: StreamNews) => void>>
  >();
  /** The streams this instance writes and has not ended. */
  private readonly live = new Set<string>();
  private renewal?: NodeJS.Timeout;
  private failing = false;

  constructor(
    url: string,
    private readonly settings: Pick<
      McpResumptionSettings,
      'retainMs' | 'maxEventsPerStream' | 'keyPrefix'
    >,
    load?: () => unknown,
  ) {
    this.connections = new RedisConnections(url, 'resumable streams', load);
  }

  /** Connects; rejects, naming the server, when it cannot. */
  async start(): Promise<void> {
    this.writer = await this.connections.connect<RedisClient>();
    const subscriber = await this.connections.connect<RedisClient>();
    subscriber.on('message', (channel, text) => {
      const news = newsOf(text);
      void this.followers.get(channel)?.then((listeners) => {
        for (const listener of [...listeners]) {
          if (news) listener(news);
        }
      });
    });
    this.subscriber = subscriber;
    this.renewal = setInterval(
      () => this.renew(),
      Math.max(1, Math.floor(this.settings.retainMs / 2)),
    ).unref();
  }

  open(id: string, owner: string): void {
    this.live.add(id);
    this.send(
      this.client().multi().set(this.ownerKey(id), owner, 'PX', this.ttl),
    );
  }

  append(id: string, event: StoredEvent): void {
    this.write(id, JSON.stringify({ s: event.seq, d: event.data }));
  }

  end(id: string): void {
    this.live.delete(id);
    this.write(id, END);
  }

  async replay(
    id: string,
    owner: string,
    afterSeq: number,
  ): Promise<StreamReplay | undefined> {
    const replies = await this.client()
      .multi()
      .get(this.ownerKey(id))
      .lrange(this.key(id), 0, -1)
      .exec();
    const [[, kept], [, list]] = replies ?? [[], []];
    if (kept !== owner || !Array.isArray(list)) {
      return undefined;
    }
    const entries = (list as string[]).map((text) => JSON.parse(text) as Entry);
    const events = entries.flatMap((entry) =>
      'end' in entry ? [] : [{ seq: entry.s, data: entry.d }],
    );
    const last = events.at(-1)?.seq ?? 0;
    if (afterSeq > last || (events[0]?.seq ?? 1) > afterSeq + 1) {
      return undefined;
    }
    return {
      events: events.filter((event) => event.seq > afterSeq),
      ended: entries.some((entry) => 'end' in entry),
    };
  }

  async follow(
    id: string,
    listener: (news: StreamNews) => void,
  ): Promise<() => void> {
    const channel = this.key(id);
    let subscribed = this.followers.get(channel);
    if (!subscribed) {
      const subscriber = this.subscriber!;
      subscribed = subscriber.subscribe(channel).then(() => new Set());
      this.followers.set(channel, subscribed);
      // A failed subscription is not kept: the next follower tries again.
      subscribed.catch(() => this.followers.delete(channel));
    }
    const listeners = await subscribed;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.followers.get(channel) === subscribed) {
        this.followers.delete(channel);
        this.subscriber?.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    clearInterval(this.renewal);
    for (const each of await Promise.allSettled(this.followers.values())) {
      const listeners = each.status === 'fulfilled' ? [...each.value] : [];
      for (const listener of listeners) listener({ kind: 'end' });
    }
    this.followers.clear();
    await this.connections.close();
  }

  private get ttl(): number {
    return this.settings.retainMs;
  }

  private key(id: string): string {
    return `${this.settings.keyPrefix}${id}`;
  }

  private ownerKey(id: string): string {
    return `${this.key(id)}:owner`;
  }

  private client(): RedisClient {
    if (!this.writer) throw new Error('the Redis event store is not started');
    return this.writer;
  }

  /** Appends `entry` to stream `id` and publishes it, in one transaction. */
  private write(id: string, entry: string): void {
    const key = this.key(id);
    const max = this.settings.maxEventsPerStream;
    this.send(
      this.client()
        .multi()
        .rpush(key, entry)
        // The end marker is one more entry than the events kept.
        .ltrim(key, -(max + 1), -1)
        .pexpire(key, this.ttl)
        .pexpire(this.ownerKey(id), this.ttl)
        .publish(key, entry),
    );
  }

  /** Keeps the keys of the streams still written here from expiring. */
  private renew(): void {
    for (const id of this.live) {
      this.send(
        this.client()
          .multi()
          .pexpire(this.key(id), this.ttl)
          .pexpire(this.ownerKey(id), this.ttl),
      );
    }
  }

  /** Sends a transaction; a failure is logged once until one succeeds. */
  private send(multi: RedisMulti): void {
    multi.exec().then(
      () => (this.failing = false),
      (error: Error) => {
        if (!this.failing) {
          this.failing = true;
          this.logger.warn(
            `A resumable stream's events could not be kept in Redis: ${error.message}`,
          );
        }
      },
    );
  }
}

/** What a published entry tells a follower, or undefined when it is not one. */
function newsOf(text: string): StreamNews | undefined {
  try {
    const entry = JSON.parse(text) as Partial<{
      s: number;
      d: string;
      end: true;
    }>;
    if (entry.end === true) return { kind: 'end' };
    return typeof entry.s === 'number' && typeof entry.d === 'string'
      ? { kind: 'event', event: { seq: entry.s, data: entry.d } }
      : undefined;
  } catch {
    return undefined;
  }
}
