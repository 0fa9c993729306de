import type { McpResumptionSettings } from '../options/resumption-options.resolver.js';
import type {
  EventStore,
  StoredEvent,
  StreamNews,
  StreamReplay,
} from './event-store.js';

/** One stream as this instance keeps it. */
interface MemoryStream {
  readonly owner: string;
  readonly events: StoredEvent[];
  /** The `seq` of the latest event appended (kept or not). */
  last: number;
  ended: boolean;
  readonly listeners: Set<(news: StreamNews) => void>;
  timer?: NodeJS.Timeout;
}

/**
 * The streams of this instance, in memory: each keeps its latest
 * `maxEventsPerStream` events, all together at most `maxEvents` (past it
 * the oldest streams go whole, their followers told the end), and an
 * ended stream goes `retainMs` after its end.
 */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, MemoryStream>();
  private total = 0;

  constructor(
    private readonly settings: Pick<
      McpResumptionSettings,
      'retainMs' | 'maxEventsPerStream' | 'maxEvents'
    >,
  ) {}

  open(id: string, owner: string): void {
    this.streams.set(id, {
      owner,
      events: [],
      last: 0,
      ended: false,
      listeners: new Set(),
    });
  }

  append(id: string, event: StoredEvent): void {
    const stream = this.streams.get(id);
    if (!stream || stream.ended) {
      return;
    }
    stream.events.push(event);
    stream.last = event.seq;
    this.total += 1;
    if (stream.events.length > this.settings.maxEventsPerStream) {
      stream.events.shift();
      this.total -= 1;
    }
    for (const listener of stream.listeners) {
      listener({ kind: 'event', event });
    }
    while (this.total > this.settings.maxEvents) {
      this.drop(this.streams.keys().next().value as string);
    }
  }

  end(id: string): void {
    const stream = this.streams.get(id);
    if (!stream || stream.ended) {
      return;
    }
    stream.ended = true;
    stream.timer = setTimeout(
      () => this.drop(id),
      this.settings.retainMs,
    ).unref();
    this.tell(stream, { kind: 'end' });
  }

  replay(
    id: string,
    owner: string,
    afterSeq: number,
  ): Promise<StreamReplay | undefined> {
    const stream = this.streams.get(id);
    if (
      !stream ||
      stream.owner !== owner ||
      afterSeq > stream.last ||
      (stream.events[0]?.seq ?? stream.last + 1) > afterSeq + 1
    ) {
      return Promise.resolve(undefined);
    }
    return Promise.resolve({
      events: stream.events.filter((event) => event.seq > afterSeq),
      ended: stream.ended,
    });
  }

  follow(
    id: string,
    listener: (news: StreamNews) => void,
  ): Promise<() => void> {
    const listeners = this.streams.get(id)?.listeners;
    listeners?.add(listener);
    return Promise.resolve(() => listeners?.delete(listener));
  }

  close(): Promise<void> {
    for (const id of [...this.streams.keys()]) {
      this.drop(id);
    }
    return Promise.resolve();
  }

  /** Forgets stream `id`; its followers are told the end. */
  private drop(id: string): void {
    const stream = this.streams.get(id);
    if (!stream) {
      return;
    }
    this.streams.delete(id);
    this.total -= stream.events.length;
    clearTimeout(stream.timer);
    this.tell(stream, { kind: 'end' });
  }

  private tell(stream: MemoryStream, news: StreamNews): void {
    for (const listener of [...stream.listeners]) {
      listener(news);
    }
    if (news.kind === 'end') {
      stream.listeners.clear();
    }
  }
}
