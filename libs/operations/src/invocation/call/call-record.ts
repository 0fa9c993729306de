import type { OperationRequest } from '../pipeline/operation-request.js';
import type { CallPlan } from './call-plan.js';
import type { InvocationRecord } from './invocation-options.interface.js';

/** What an observed call keeps for its record: its request, once made. */
export interface SeenCall {
  request?: OperationRequest;
}

/** The record of an observed call, as its carrier's `observe` is told it. */
export function recordOf(call: CallPlan, seen: SeenCall): InvocationRecord {
  return {
    operationId: call.operation.id,
    correlationId: call.correlationId,
    tenant: tenantOf(call),
    principal: seen.request?.user,
    ...(call.confirmed ? { confirmed: true } : {}),
  };
}

/** The app's tenant of the call; undefined when its reading of the headers fails. */
function tenantOf(call: CallPlan): string | undefined {
  try {
    return call.tenantOf?.(call.headers);
  } catch {
    return undefined;
  }
}
