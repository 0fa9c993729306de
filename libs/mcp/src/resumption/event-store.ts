/** One event of a stream. */
export interface StoredEvent {
  /** Its place in the stream, from 1. */
  readonly seq: number;
  /** The JSON-RPC message, as JSON text. */
  readonly data: string;
}

/** What a stream holds after a given event, as a replay finds it. */
export interface StreamReplay {
  /** The events after the one asked for, in order. */
  readonly events: readonly StoredEvent[];
  /** Whether the stream has ended (its last event is among those kept). */
  readonly ended: boolean;
}

/** What a follower is told: an event as it is appended, or the stream's end. */
export type StreamNews =
  | { readonly kind: 'event'; readonly event: StoredEvent }
  | { readonly kind: 'end' };

/**
 * Where the events of resumable SSE streams are kept (in memory, or in
 * Redis for every instance of the app). A stream belongs to the caller
 * that opened it (`owner`, a `callerDigest`): a replay for anyone else
 * finds nothing, as for an unknown stream.
 */
export interface EventStore {
  /** Starts stream `id`, owned by `owner`. */
  open(id: string, owner: string): void;
  /** Appends `event` to stream `id` (events come in `seq` order). */
  append(id: string, event: StoredEvent): void;
  /** Ends stream `id`: kept `retainMs` more, then forgotten. */
  end(id: string): void;
  /**
   * The events of stream `id` after `afterSeq`; undefined when `owner`
   * has no such stream (unknown, expired, another's) or when events after
   * `afterSeq` were dropped (the stream outgrew its bound).
   */
  replay(
    id: string,
    owner: string,
    afterSeq: number,
  ): Promise<StreamReplay | undefined>;
  /** Tells `listener` what happens to stream `id` from now on; returns how to stop. */
  follow(id: string, listener: (news: StreamNews) => void): Promise<() => void>;
  /** Lets every connection and timer go. */
  close(): Promise<void>;
}
