import type { OperationFailure } from '../../errors/operation-failure.js';
import type { InvocationResult } from './invocation-options.interface.js';

/** A call that failed, before its text is rendered in the call's language. */
export interface CallFailure {
  readonly ok: false;
  readonly failure: OperationFailure;
}

/** How a call ended, as the invoker sees it before it answers. */
export type CallOutcome =
  Extract<InvocationResult, { readonly ok: true }> | CallFailure;
