import { OperationException } from '../errors/operation.exception.js';
import type { InvocationContext } from '../interfaces/operation-contract.js';
import { callPlanOf } from '../invocation/context/invocation-context.factory.js';
import { questionsOf } from '../invocation/call/call-plan.js';
import { confirmCall } from './confirmation.js';

/**
 * What must hold before the method of the call of `context` runs: the
 * client can answer what the operation `requires` (else
 * `BUSINESS_CLIENT_001`, thrown), and the user confirmed the call where it
 * needs confirmation (recorded for the audit trail; rejects as
 * `confirmCall` does). Undefined when nothing is to wait for (no promise
 * for most calls).
 */
export function readyToRun(
  context: unknown,
  input: unknown,
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
  if (confirmation === undefined) {
    return undefined;
  }
  return confirmCall(confirmation, questionsOf(call), input).then(
    (confirmed) => {
      if (confirmed) {
        call.confirmed = true;
      }
    },
  );
}
