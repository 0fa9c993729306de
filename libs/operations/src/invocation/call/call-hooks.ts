import type { CallHooks } from './invocation-options.interface.js';
import type { InvocationContext } from '../../interfaces/operation-contract.js';
import { callPlanOf } from '../context/invocation-context.factory.js';

/**
 * The hooks the carrier gave the call of `context` (undefined: none, or
 * not an operation call's context).
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export function callHooksOf(context: InvocationContext): CallHooks | undefined {
  return callPlanOf(context)?.hooks;
}
