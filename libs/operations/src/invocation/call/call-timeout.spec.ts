import { formatFailure } from '../../errors/failure-text.js';
import type { CallFailure } from './call-outcome.js';
import { CallAbort } from './call-abort.js';
import {
  type CallStop,
  type OnCallStop,
  startCallTimeout,
  watchCallCancel,
} from './call-timeout.js';

const MAX_DELAY = 2 ** 31 - 1;

/** The stop `start` makes, with the failure it stops with as `expired`. */
function withExpired(start: (onStop: OnCallStop) => CallStop) {
  let stop: CallStop | undefined;
  const expired = new Promise<CallFailure>((resolve) => {
    stop = start(resolve);
  });
  return Object.assign(stop!, { expired });
}

function text(result: CallFailure | { readonly ok: true }): string {
  if (result.ok) {
    throw new Error('not a failure');
  }
  return formatFailure(result.failure);
}

describe('startCallTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts the signal and answers INTERNAL_TIMEOUT_001 when the time is up', async () => {
    const abort = new CallAbort();
    const timeout = withExpired((stop) =>
      startCallTimeout(1500, abort, 'a.b', stop),
    );

    vi.advanceTimersByTime(1499);
    expect(abort.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);

    expect(abort.signal.aborted).toBe(true);
    expect(text(await timeout.expired)).toBe(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 1.5 s.',
    );
  });

  it.each([
    [250, '0.25'],
    [30_000, '30'],
    [1, '0.001'],
    [0.5, '0.0005'],
    [1234.5, '1.2345'],
  ])('states %s ms as %s s', async (ms, seconds) => {
    const timeout = withExpired((stop) =>
      startCallTimeout(ms, new CallAbort(), 'a.b', stop),
    );
    vi.advanceTimersByTime(Math.ceil(ms));

    expect(text(await timeout.expired)).toBe(
      `INTERNAL_TIMEOUT_001: The operation did not finish within ${seconds} s.`,
    );
  });

  it('never aborts once cancelled', () => {
    const abort = new CallAbort();
    withExpired((stop) => startCallTimeout(100, abort, 'a.b', stop)).cancel();

    vi.advanceTimersByTime(1_000);

    expect(abort.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits longer than setTimeout can at once', () => {
    const abort = new CallAbort();
    const timeout = withExpired((stop) =>
      startCallTimeout(MAX_DELAY + 5_000, abort, 'a.b', stop),
    );

    vi.advanceTimersByTime(MAX_DELAY + 4_999);
    expect(abort.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(abort.signal.aborted).toBe(true);
    return timeout.expired;
  });

  it('can be cancelled after its first setTimeout ran out', () => {
    const abort = new CallAbort();
    const timeout = withExpired((stop) =>
      startCallTimeout(MAX_DELAY + 5_000, abort, 'a.b', stop),
    );

    vi.advanceTimersByTime(MAX_DELAY + 1);
    timeout.cancel();
    vi.advanceTimersByTime(10_000);

    expect(abort.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('neither aborts nor answers once the call has begun to commit', async () => {
    const abort = new CallAbort();
    const timeout = withExpired((stop) =>
      startCallTimeout(100, abort, 'a.b', stop),
    );
    expect(abort.beginCommit()).toBe(true);

    vi.advanceTimersByTime(1_000);

    expect(abort.signal.aborted).toBe(false);
    const settled = await Promise.race([
      timeout.expired.then(() => 'expired'),
      Promise.resolve('pending'),
    ]);
    expect(settled).toBe('pending');
  });
});

describe('watchCallCancel', () => {
  it('aborts the call and answers INTERNAL_CANCELLED_001 when the carrier cancels', async () => {
    const carrier = new AbortController();
    const abort = new CallAbort();
    const watch = withExpired((stop) =>
      watchCallCancel(carrier.signal, abort, 'a.b', stop),
    );
    expect(abort.signal.aborted).toBe(false);

    carrier.abort();

    expect(abort.signal.aborted).toBe(true);
    expect(text(await watch.expired)).toBe(
      'INTERNAL_CANCELLED_001: The call was cancelled.',
    );
  });

  it('gives up at once a call whose carrier signal is already aborted', async () => {
    const abort = new CallAbort();
    const watch = withExpired((stop) =>
      watchCallCancel(AbortSignal.abort(), abort, 'a.b', stop),
    );
    expect(abort.signal.aborted).toBe(true);
    expect(text(await watch.expired)).toMatch(/^INTERNAL_CANCELLED_001/);
  });

  it('neither aborts nor answers once the call has begun to commit, nor once it stopped watching', async () => {
    const committing = new AbortController();
    const abort = new CallAbort();
    const watch = withExpired((stop) =>
      watchCallCancel(committing.signal, abort, 'a.b', stop),
    );
    abort.beginCommit();
    committing.abort();
    expect(abort.signal.aborted).toBe(false);

    const finished = new AbortController();
    const other = new CallAbort();
    withExpired((stop) =>
      watchCallCancel(finished.signal, other, 'a.b', stop),
    ).cancel();
    finished.abort();
    expect(other.signal.aborted).toBe(false);

    const settled = await Promise.race([
      watch.expired.then(() => 'expired'),
      Promise.resolve('pending'),
    ]);
    expect(settled).toBe('pending');
  });
});
