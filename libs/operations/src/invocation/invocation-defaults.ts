import type { ModuleRef } from '@nestjs/core';
import type { InputLimits } from './input-limits.js';

/**
 * What applies to every call of the app, whatever its carrier: MCP over
 * HTTP and stdio, the command line's `invoke`, the testing kits. A carrier
 * module provides it under `INVOCATION_DEFAULTS` (`McpModule` does, from
 * its `timeout` and `inputLimits` options); without one, no timeout and
 * `INPUT_LIMITS`.
 *
 * @publicApi
 */
export interface InvocationDefaults {
  /** Per-call limit in milliseconds where the carrier sets none. Default: none. */
  readonly timeout?: number;
  /** How much input a call may carry. Default: `INPUT_LIMITS`. */
  readonly inputLimits?: InputLimits;
}

/**
 * The injection token of the app's `InvocationDefaults`. `OperationInvoker`
 * looks it up in the whole app once, at bootstrap; provide it at most once.
 *
 * @publicApi
 */
export const INVOCATION_DEFAULTS = Symbol('nestops:invocation-defaults');

/** The app's `InvocationDefaults`, wherever a module provides them; else none. */
export function findInvocationDefaults(
  moduleRef: ModuleRef,
): InvocationDefaults {
  try {
    return moduleRef.get<InvocationDefaults>(INVOCATION_DEFAULTS, {
      strict: false,
    });
  } catch {
    return {};
  }
}
