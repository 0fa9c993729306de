import { operationFailure } from '../../errors/operation-failure.js';
import type { CallFailure } from './call-outcome.js';
import type { CarrierCancel } from './invocation-options.interface.js';

// The longest delay `setTimeout` waits at once; a longer one fires at once.
const MAX_DELAY = 2 ** 31 - 1;

/**
 * What gives one call up (its timeout, its caller's cancellation),
 * watching: once it fires it has aborted the call's signal and called its
 * `onStop` with the failure the call is answered with; never when the call
 * has begun to commit by then (its answer is what the commit did). It makes
 * no promise of its own: a call that finishes first costs none.
 */
export interface CallStop {
  /** Stops watching for good: call it as soon as the call has finished. */
  cancel(): void;
}

/** Called once with the failure of a call given up. */
export type OnCallStop = (failure: CallFailure) => void;

/**
 * Starts the timeout of a call, `ms` milliseconds long, however long that
 * is: once it is up, `onStop` gets `INTERNAL_TIMEOUT_001`.
 */
export function startCallTimeout(
  ms: number,
  abort: { abort(reason: unknown): boolean },
  operationId: string,
  onStop: OnCallStop,
): CallStop {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
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
        onStop({
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
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Gives the call up when the carrier's `signal` aborts (its caller
 * cancelled it): aborts the call's signal and calls `onStop` with
 * `INTERNAL_CANCELLED_001` (at once if it already is); never once the call
 * has begun to commit.
 */
export function watchCallCancel(
  signal: CarrierCancel,
  abort: { abort(reason: unknown): boolean },
  operationId: string,
  onStop: OnCallStop,
): CallStop {
  const onAbort = () => {
    if (abort.abort(new Error(`Operation ${operationId} was cancelled.`))) {
      onStop({
        ok: false,
        failure: operationFailure('INTERNAL_CANCELLED_001', {}),
      });
    }
  };
  if (signal.aborted) {
    onAbort();
  } else {
    signal.addEventListener('abort', onAbort);
  }
  return { cancel: () => signal.removeEventListener('abort', onAbort) };
}
