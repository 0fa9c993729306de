import type { CancelSignal } from '@nestops/operations';

/**
 * The cancellation of one call a transport can cancel (a stdio request a
 * `notifications/cancelled` names, a 2026 POST whose client closes it):
 * the `CancelSignal` the call watches, with one listener, far cheaper than
 * an `AbortController` made for every call that is never cancelled.
 */
export class CarrierCancel implements CancelSignal {
  aborted = false;
  private listener?: () => void;

  addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) {
      this.listener = undefined;
    }
  }

  /** Cancels the call, once. */
  cancel(): void {
    if (!this.aborted) {
      this.aborted = true;
      this.listener?.();
    }
  }
}
