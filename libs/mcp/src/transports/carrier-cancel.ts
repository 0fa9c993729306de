/**
 * The cancellation of one call a transport can cancel (a stdio request a
 * `notifications/cancelled` names, a 2026 POST whose client closes it):
 * `signal`, the `AbortSignal` the call watches, aborted by `cancel()`.
 */
export class CarrierCancel {
  private readonly controller = new AbortController();

  /** What the call watches: aborted once `cancel()` is called. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the call was cancelled. */
  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.controller.signal.addEventListener('abort', listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.controller.signal.removeEventListener('abort', listener);
  }

  /** Cancels the call, once. */
  cancel(): void {
    this.controller.abort();
  }
}
