/**
 * The abort signal of one call, made when something first asks for it (a
 * handler or interceptor reading `context.signal`, or the call's timeout):
 * a call nobody watches and that has no timeout costs no `AbortController`.
 *
 * It also knows whether the call has begun to commit: from then on it can
 * no longer be given up, since its writes may already be durable.
 */
export class CallAbort {
  private controller?: AbortController;
  private committing = false;

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  /** Whether `error` is the reason this call was aborted with. */
  isReason(error: unknown): boolean {
    const signal = this.controller?.signal;
    return signal !== undefined && signal.aborted && error === signal.reason;
  }

  /**
   * Gives the call up with `reason` (its deadline passed, or it was
   * cancelled), unless it has begun to commit: then nothing changes, and
   * the answer is false.
   */
  abort(reason: unknown): boolean {
    if (this.committing) {
      return false;
    }
    (this.controller ??= new AbortController()).abort(reason);
    return true;
  }

  /**
   * Marks the call as committing, so that it is no longer given up; false
   * when it already was (it must then be rolled back).
   */
  beginCommit(): boolean {
    if (this.controller?.signal.aborted) {
      return false;
    }
    this.committing = true;
    return true;
  }
}
