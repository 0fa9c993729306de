import type { ModuleRef } from '@nestjs/core';
import type { PermissionsOf } from '../../authorization/principal-permissions.js';
import { INPUT_LIMITS, type InputLimits } from '../input/input-limits.js';

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
  /** How much input a call may carry, every limit given. Default: `INPUT_LIMITS`. */
  readonly inputLimits?: InputLimits;
  /**
   * The permissions of a principal, for every permission check of a call.
   * Default: its `permissions` property (`principalPermissions`).
   */
  readonly permissionsOf?: PermissionsOf;
  /**
   * The tenant of a call, as the app decides it from the call's headers:
   * its context's `tenant`. What it throws fails the call (an
   * `OperationException` as it says). Default: none (calls have no tenant).
   */
  readonly tenantOf?: TenantOf;
  /**
   * Which operations ask the user to confirm each call where their own
   * `confirm` does not say: `destructive`, every destructive one.
   * Default: none.
   */
  readonly confirm?: 'destructive';
  /**
   * Whether a call that needs confirmation runs unconfirmed where the
   * client cannot ask (else it fails with `SECURITY_CONFIRMATION_001`).
   * Default: false.
   */
  readonly runUnconfirmed?: boolean;
}

/** The app's reading of a call's tenant (`InvocationDefaults.tenantOf`). */
export type TenantOf = (
  headers: Readonly<Record<string, string | string[] | undefined>>,
) => string | undefined;

/**
 * The injection token of the app's `InvocationDefaults`. `OperationInvoker`
 * looks it up in the whole app once, at bootstrap; provide it at most once.
 *
 * @publicApi
 */
export const INVOCATION_DEFAULTS = Symbol('nestops:invocation-defaults');

/**
 * The app's `InvocationDefaults`, wherever a module provides them; else
 * none. Throws, naming each problem, for defaults no call could run with.
 */
export function findInvocationDefaults(
  moduleRef: ModuleRef,
): InvocationDefaults {
  let found: unknown;
  try {
    found = moduleRef.get(INVOCATION_DEFAULTS, { strict: false });
  } catch {
    return {};
  }
  const problems = problemsOf(found);
  if (problems.length > 0) {
    throw new Error(`Invalid INVOCATION_DEFAULTS: ${problems.join('; ')}.`);
  }
  return found as InvocationDefaults;
}

function problemsOf(defaults: unknown): string[] {
  if (typeof defaults !== 'object' || defaults === null) {
    return [
      'they must be an object ({ timeout?, inputLimits?, permissionsOf?, tenantOf?, confirm?, runUnconfirmed? })',
    ];
  }
  const { timeout, inputLimits, permissionsOf, tenantOf, confirm } =
    defaults as Record<string, unknown>;
  const { runUnconfirmed } = defaults as Record<string, unknown>;
  const problems: string[] = [];
  if (
    timeout !== undefined &&
    !(typeof timeout === 'number' && timeout > 0 && Number.isFinite(timeout))
  ) {
    problems.push('timeout must be a positive number of milliseconds');
  }
  if (permissionsOf !== undefined && typeof permissionsOf !== 'function') {
    problems.push('permissionsOf must be a function');
  }
  if (tenantOf !== undefined && typeof tenantOf !== 'function') {
    problems.push('tenantOf must be a function');
  }
  if (confirm !== undefined && confirm !== 'destructive') {
    problems.push("confirm must be 'destructive' or left out");
  }
  if (runUnconfirmed !== undefined && typeof runUnconfirmed !== 'boolean') {
    problems.push('runUnconfirmed must be true or false');
  }
  if (inputLimits !== undefined) {
    for (const key of Object.keys(INPUT_LIMITS)) {
      const limit = (inputLimits as Record<string, unknown> | null)?.[key];
      if (!Number.isSafeInteger(limit) || (limit as number) < 1) {
        problems.push(`inputLimits.${key} must be a positive integer`);
      }
    }
  }
  return problems;
}
