import type { McpSettings } from '../options/mcp-settings.js';
import type { McpResumptionSettings } from '../options/resumption-options.resolver.js';
import type { EventStore } from './event-store.js';
import { MemoryEventStore } from './memory-event-store.js';
import { RedisEventStore } from './redis-event-store.js';
import { StreamRecorder } from './stream-recorder.js';

/**
 * Resumable SSE streams, as the module's options make them: their store
 * (Redis with the `redis` option, else this instance's memory) and the
 * `resumption` settings; undefined from `of` when `resumption` is `false`.
 */
export class Resumption {
  private constructor(
    /** Where the streams' events are kept. */
    readonly store: EventStore,
    /** The `resumption` option with its defaults. */
    readonly settings: McpResumptionSettings,
  ) {}

  /** The resumption of the module's options, or undefined (turned off). */
  static of(settings: McpSettings): Resumption | undefined {
    const { resumption, redis } = settings;
    if (!resumption) {
      return undefined;
    }
    return new Resumption(
      redis
        ? new RedisEventStore(redis.url, resumption)
        : new MemoryEventStore(resumption),
      resumption,
    );
  }

  /** Connects the store, if it has connections; rejects when it cannot. */
  async start(): Promise<void> {
    if (this.store instanceof RedisEventStore) {
      await this.store.start();
    }
  }

  /** A new stream owned by `owner` (a `callerDigest`). */
  record(owner: string): StreamRecorder {
    return new StreamRecorder(this.store, owner);
  }
}
