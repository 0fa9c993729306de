import { OperationException } from '../errors/operation.exception.js';
import type { InvocationContext } from '../interfaces/operation-contract.js';
import { callPlanOf } from '../invocation/context/invocation-context.factory.js';
import { questionsOf } from '../invocation/call/call-plan.js';
import { confirmCall } from './confirmation.js';

/** What `input` gives for input its operation's validation refuses. */
export const INVALID_INPUT = Symbol('nestops:invalid-input');

/**
 * What must hold before the call of `context` goes on past its guards: the
 * client can answer what the operation `requires` (else
 * `BUSINESS_CLIENT_001`, thrown), and the user confirmed the call where it
 * needs confirmation (recorded for the audit trail; rejects as
 * `confirmCall` does), asked with the validated `input()`. A call its
 * carrier runs later (`runLater`, a task) then stops with
 * `INTERNAL_TASK_001`. Undefined when nothing is to wait for (no promise
 * for most calls).
 */
export function readyToRun(
  context: unknown,
  input: () => Promise<unknown>,
): Promise<void> | undefined {
  const call = callPlanOf(context as InvocationContext);
  if (call === undefined) {
    return undefined;
  }
  const requires = call.operation.asks?.requires;
  if (requires !== undefined && requires.length > 0) {
    const questions = questionsOf(call);
    const missing = requires.find((each) => questions.can(each) === false);
    if (missing !== undefined) {
      throw new OperationException('BUSINESS_CLIENT_001', {
        capability: missing,
      });
    }
  }
  const confirmation = call.confirmation;
  const runLater = call.hooks?.runLater;
  if (confirmation === undefined && runLater === undefined) {
    return undefined;
  }
  return input().then(async (value) => {
    if (value === INVALID_INPUT) {
      return; // The pipeline's validation fails the call, unasked.
    }
    if (
      confirmation !== undefined &&
      (await confirmCall(confirmation, questionsOf(call), value))
    ) {
      call.confirmed = true;
    }
    if (runLater !== undefined) {
      const taskId = await runLater();
      throw new OperationException('INTERNAL_TASK_001', { taskId });
    }
  });
}
