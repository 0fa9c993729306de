import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { OperationException } from '../errors/operation.exception.js';
import { getInvocationContext } from '../invocation/context/get-invocation-context.js';
import type { InvocationContext } from '../interfaces/operation-contract.js';
import { validationPipeOf } from '../invocation/input/dto-validation-pipe.js';
import { INVALID_INPUT, readyToRun } from '../asking/ready-to-run.js';
import {
  heldPermissions,
  type PermissionsOf,
} from './principal-permissions.js';

/**
 * Enforces an operation's `permission` and `policy` contract after the app's own guards
 * have authenticated the caller, then what it asks before it runs (what the
 * client must answer, the user's confirmation). The principal's permissions
 * are the app's `permissionsOf` of it, else its `permissions` property (an
 * array or set of strings).
 */
export class OperationAuthorizationGuard implements CanActivate {
  constructor(private readonly permissionsOf?: PermissionsOf) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const invocation = getInvocationContext(context);
    if (!invocation) {
      return true;
    }
    const { permissions, policy } = invocation.operation;
    if (permissions.length > 0) {
      const principal = invocation.principal;
      if (principal === undefined || principal === null) {
        throw new OperationException('SECURITY_DENIED_003');
      }
      const held = heldPermissions(principal, this.permissionsOf);
      const missing = permissions.find((permission) => !held.has(permission));
      if (missing !== undefined) {
        throw new OperationException('SECURITY_DENIED_004', {
          permission: missing,
        });
      }
    }
    if (policy && !(await policy(invocation))) {
      throw new OperationException('SECURITY_DENIED_002');
    }
    // Last of the guards, before the interceptors (a transaction, SQLite's
    // one connection): what the client must answer, the user's confirmation.
    const ready = readyToRun(invocation, () =>
      validatedInput(invocation, context),
    );
    if (ready) {
      await ready;
    }
    return true;
  }
}

/** The call's input as its operation validates it; `INVALID_INPUT` when it does not. */
async function validatedInput(
  invocation: InvocationContext,
  context: ExecutionContext,
): Promise<unknown> {
  const { input } = invocation.operation;
  const body: unknown = context
    .switchToHttp()
    .getRequest<{ body?: unknown }>().body;
  if (!input) {
    return body;
  }
  try {
    return await validationPipeOf(input).transform(body, {
      type: 'body',
      metatype: input,
    });
  } catch {
    return INVALID_INPUT;
  }
}
