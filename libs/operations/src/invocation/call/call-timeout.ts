import { operationFailure } from '../../errors/operation-failure.js';
import type { CallFailure } from './call-outcome.js';
import type { CancelSignal } from './invocation-options.interface.js';

// The longest delay `setTimeout` waits at once; a longer one fires at once.
const MAX_DELAY = 2 ** 31 - 1;

/** What gives one call up (its timeout, its caller's cancellation), running. */
export interface CallStop {
  /**
   * Aborts the call's signal and settles with `INTERNAL_TIMEOUT_001` once
   * the time is up; never when the call has begun to commit by then (its
   * answer is what the commit did).
   */
  readonly expired: Promise<CallFailure>;
  /** Stops watching for good: call it as soon as the call has finished. */
  cancel(): void;
}

/** Starts the timeout of a call, `ms` milliseconds long, however long that is. */
export function startCallTimeout(
  ms: number,
  abort: { abort(reason: unknown): boolean },
  operationId: string,
): CallStop {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const expired = new Promise<CallFailure>((resolve) => {
    const wait = (remaining: number) => {
      timer = setTimeout(
        () => {
          if (cancelled) {
            return;
          }
          if (remaining > MAX_DELAY) {
            wait(remaining - MAX_DELAY);
            return;
          }
          if (!abort.abort(new Error(`Operation ${operationId} timed out.`))) {
            return;
          }
          resolve({
            ok: false,
            failure: operationFailure('INTERNAL_TIMEOUT_001', {
              seconds: ms / 1000,
            }),
          });
        },
        Math.min(remaining, MAX_DELAY),
      );
    };
    wait(ms);
  });
  return {
    expired,
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Gives the call up when the carrier's `signal` aborts (its caller
 * cancelled it): aborts the call's signal and settles with
 * `INTERNAL_CANCELLED_001`; never once the call has begun to commit.
 */
export function watchCallCancel(
  signal: CancelSignal,
  abort: { abort(reason: unknown): boolean },
  operationId: string,
): CallStop {
  let onAbort = () => undefined as void;
  const expired = new Promise<CallFailure>((resolve) => {
    onAbort = () => {
      if (abort.abort(new Error(`Operation ${operationId} was cancelled.`))) {
        resolve({
          ok: false,
          failure: operationFailure('INTERNAL_CANCELLED_001', {}),
        });
      }
    };
  });
  if (signal.aborted) {
    onAbort();
  } else {
    signal.addEventListener('abort', onAbort);
  }
  return {
    expired,
    cancel: () => signal.removeEventListener('abort', onAbort),
  };
}
