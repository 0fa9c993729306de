import { operationFailure } from '../../errors/operation-failure.js';
import type { CallFailure } from './call-outcome.js';

// The longest delay `setTimeout` waits at once; a longer one fires at once.
const MAX_DELAY = 2 ** 31 - 1;

/** The timeout of one call, running. */
export interface CallTimeout {
  /**
   * Aborts the call's signal and settles with `INTERNAL_TIMEOUT_001` once
   * the time is up; never when the call has begun to commit by then (its
   * answer is what the commit did).
   */
  readonly expired: Promise<CallFailure>;
  /** Stops the timer for good: call it as soon as the call has finished. */
  cancel(): void;
}

/** Starts the timeout of a call, `ms` milliseconds long, however long that is. */
export function startCallTimeout(
  ms: number,
  abort: { abort(reason: unknown): boolean },
  operationId: string,
): CallTimeout {
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
