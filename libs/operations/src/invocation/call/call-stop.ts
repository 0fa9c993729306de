import type { CallOutcome } from './call-outcome.js';
import type { CallPlan } from './call-plan.js';
import {
  type CallStop,
  startCallTimeout,
  watchCallCancel,
} from './call-timeout.js';
import type { CarrierCancel } from './invocation-options.interface.js';

/**
 * The outcome of `running`, or the failure of what gives the call up
 * first: its deadline, its caller's cancellation. Whichever comes first
 * stops the others; the call's signal is what tells a call given up that
 * it is.
 */
export function untilStopped(
  running: Promise<CallOutcome>,
  call: CallPlan,
  signal: CarrierCancel | undefined,
  operationId: string,
): Promise<CallOutcome> {
  return new Promise<CallOutcome>((resolve, reject) => {
    let timer: CallStop | undefined;
    let cancel: CallStop | undefined;
    const stopWatching = () => {
      timer?.cancel();
      cancel?.cancel();
    };
    const settle = (outcome: CallOutcome) => {
      stopWatching();
      resolve(outcome);
    };
    if (call.timeout !== undefined) {
      timer = startCallTimeout(call.timeout, call.abort, operationId, settle);
    }
    if (signal !== undefined) {
      cancel = watchCallCancel(signal, call.abort, operationId, settle);
    }
    running.then(settle, (error: unknown) => {
      stopWatching();
      reject(error);
    });
  });
}
