import type { InvocationContext } from '../../interfaces/operation-contract.js';
import { callPlanOf } from '../context/invocation-context.factory.js';
import type { SerializedResult } from '../output/output-contract.js';

/**
 * What a unit of work (a transaction interceptor such as
 * `@nestops/typeorm`'s) does with the call it runs in, beyond what the
 * call's `InvocationContext` shows everyone.
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface CallUnitOfWork {
  /**
   * `value` serialised now as the carrier will send it, under the
   * operation's output contract, which throws when the result breaks it
   * (the call then fails with `INTERNAL_ERROR_001`). For an interceptor
   * that must see that failure before the call ends, e.g. a transaction
   * interceptor before it commits: when the call then returns this very
   * `value`, the carrier sends this serialisation, made once.
   */
  serializeResult(value: unknown): SerializedResult;
  /**
   * For a unit of work about to commit the call's writes: marks the call as
   * committing, after which its deadline and cancellation no longer fail it
   * (its answer is what the commit did: success, or the commit's own
   * error). False when the call has already been given up: roll back
   * instead of committing.
   */
  beginCommit(): boolean;
  /**
   * For a unit of work that has run the call's handler inside its
   * transaction: resolves once the call's result is final (past every
   * interceptor and exception filter of the app, serialised under the
   * output contract) with true, to commit, or false when the call failed
   * or was given up, to roll back. The call is answered only once `ended`
   * settles (the commit or rollback is done); a rejection fails the call
   * with its error. So an interceptor registered outside the unit of work
   * that breaks the result leaves nothing committed.
   */
  holdCommit(ended: Promise<unknown>): Promise<boolean>;
  /**
   * The task the call runs, under whose id its committed result is recorded
   * in its transaction (`CallHooks.taskId`); undefined: none.
   */
  readonly taskId: string | undefined;
  /** The call's final result as JSON text, once `holdCommit` resolved true. */
  finalJson(): string | undefined;
}

/**
 * The unit-of-work port of the call of `context`. Throws for an object that
 * is not an operation call's context (`getInvocationContext` gives only
 * those).
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export function unitOfWorkOf(context: InvocationContext): CallUnitOfWork {
  const call = callPlanOf(context);
  if (call === undefined) {
    throw new TypeError('unitOfWorkOf: not the context of an operation call');
  }
  return {
    serializeResult: (value) => call.serializer.serialize(value),
    beginCommit: () => call.abort.beginCommit(),
    holdCommit: (ended) => call.commits.hold(ended),
    taskId: call.hooks?.taskId,
    finalJson: () => call.serializer.lastJson,
  };
}
