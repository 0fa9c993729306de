import type { EventStore } from './event-store.js';
import { eventIdOf, newStreamId } from './event-id.js';

/**
 * The keeping of one POST's SSE stream: a new stream of the store, owned
 * by its caller, whose events are numbered from 1.
 */
export class StreamRecorder {
  /** The stream's id: 128 random bits. */
  readonly streamId = newStreamId();
  private seq = 0;

  constructor(
    private readonly store: EventStore,
    owner: string,
  ) {
    store.open(this.streamId, owner);
  }

  /** Keeps `data` as the stream's next event; returns its SSE id. */
  record(data: string): string {
    this.seq += 1;
    this.store.append(this.streamId, { seq: this.seq, data });
    return eventIdOf(this.streamId, this.seq);
  }

  /** Ends the stream: nothing follows its last event. */
  end(): void {
    this.store.end(this.streamId);
  }
}
