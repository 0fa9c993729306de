import { Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The per-call request of the call the current code runs for: set around a
 * call's guards, interceptors, pipes and method, and so seen by every
 * service they call and every continuation of its promises, never by
 * another call (each gets its own, a batch's elements too).
 *
 * Only in apps that use nestjs-cls: each call runs in a CLS context of its
 * own there, so the process already pays for async context on every
 * promise (Node 20 and 22 give each one async hooks), and keeping the call
 * in one more costs next to nothing. Elsewhere entering it would make every
 * promise of the process dearer for a lookup most apps never make.
 */
const currentCall = new AsyncLocalStorage<object>();

let kept = false;
let told = false;

/** From now on, every call is kept for `currentCallRequest()`. */
export function keepCurrentCall(): void {
  kept = true;
}

/** Runs `work` as the code of the call whose per-call request is `request`. */
export function runAsCall<T>(request: object, work: () => T): T {
  return currentCall.run(request, work);
}

/**
 * The per-call request of the call the current code runs for, if any. In an
 * app without nestjs-cls there is none; the first such lookup says why, on
 * the app's log.
 */
export function currentCallRequest(): object | undefined {
  if (!kept && !told) {
    told = true;
    new Logger('Operations').warn(
      "getInvocationContext() without an argument finds the current call only in apps that use nestjs-cls: import ClsModule.forRoot({ global: true }) (nestjs-cls), or pass the handler's context on.",
    );
  }
  return currentCall.getStore();
}
