import type { EventStore, StoredEvent, StreamNews } from './event-store.js';

/** Where a resumed stream's events go. */
export interface ResumedSink {
  /** One event the client has not had, in order, once. */
  event(event: StoredEvent): void;
  /** The stream ended (its answer was the last event), or is gone. */
  end(): void;
}

/**
 * Resumes stream `streamId` for `owner` after event `afterSeq`: the events
 * kept after it, then each one appended, each once and in order, until
 * the stream ends. It follows before it replays, so that nothing appended
 * in between is missed. Undefined when `owner` has no such stream (see
 * `EventStore.replay`); else how to stop following.
 */
export async function resumeStream(
  store: EventStore,
  streamId: string,
  owner: string,
  afterSeq: number,
  sink: ResumedSink,
): Promise<(() => void) | undefined> {
  const early: StreamNews[] = [];
  let live = false;
  let done = false;
  let last = afterSeq;
  const take = (news: StreamNews): void => {
    if (done) {
      return;
    }
    if (news.kind === 'end') {
      stop();
      sink.end();
    } else if (news.event.seq > last) {
      last = news.event.seq;
      sink.event(news.event);
    }
  };
  const unfollow = await store.follow(streamId, (news) =>
    live ? take(news) : early.push(news),
  );
  const stop = (): void => {
    done = true;
    unfollow();
  };
  const replay = await store.replay(streamId, owner, afterSeq);
  if (!replay) {
    stop();
    return undefined;
  }
  live = true;
  for (const event of replay.events) {
    take({ kind: 'event', event });
  }
  for (const news of replay.ended ? [{ kind: 'end' } as const] : early) {
    take(news);
  }
  return stop;
}
