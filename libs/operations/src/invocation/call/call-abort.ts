/**
 * The abort signal of one call, made when something first asks for it (a
 * handler or interceptor reading `context.signal`, or the call's timeout):
 * a call nobody watches and that has no timeout costs no `AbortController`.
 */
export class CallAbort {
  private controller?: AbortController;

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  /** Whether `error` is the reason this call was aborted with. */
  isReason(error: unknown): boolean {
    const signal = this.controller?.signal;
    return signal !== undefined && signal.aborted && error === signal.reason;
  }

  abort(reason: unknown): void {
    (this.controller ??= new AbortController()).abort(reason);
  }
}
