import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The per-call request of the call the current code runs for: set around a
 * call's guards, interceptors, pipes and method, and so seen by every
 * service they call and every continuation of its promises, never by
 * another call (each gets its own, a batch's elements too).
 */
const currentCall = new AsyncLocalStorage<object>();

/** Runs `work` as the code of the call whose per-call request is `request`. */
export function runAsCall<T>(request: object, work: () => T): T {
  return currentCall.run(request, work);
}

/** The per-call request of the call the current code runs for, if any. */
export function currentCallRequest(): object | undefined {
  return currentCall.getStore();
}
