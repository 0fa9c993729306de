/**
 * The cancellation of one call: `aborted` once the client cancels it, with
 * the one listener the invoker adds: what a call watches in place of an
 * `AbortSignal`, whose `AbortController` costs microseconds and garbage on
 * every call though few are ever cancelled.
 */
export class CallCancel {
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

  /** Cancels the call; false when it already was. */
  cancel(): boolean {
    if (this.aborted) {
      return false;
    }
    this.aborted = true;
    this.listener?.();
    return true;
  }
}
