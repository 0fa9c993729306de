import {
  BadRequestException,
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
} from '@nestjs/common';
import { getInvocationContext, OperationException } from '@nestops/operations';
import {
  isTenantId,
  requestedTenant,
  TENANT_ID_RULE,
  type TenantSource,
  tenantsOf,
} from './tenant';

/**
 * Runs after `ApiKeyGuard`: a tenant named by `X-Tenant-Id` (or the call's
 * tenant) must be one the caller holds (anonymous callers hold `default`).
 * Refused with `SECURITY_DENIED_005` on an operation call, 403 on REST. The
 * form of the tenant is checked on REST as operation calls check it (400).
 */
@Injectable()
export class TenantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<TenantSource>();
    const tenant = requestedTenant(request);
    if (tenant === undefined) {
      return true;
    }
    const invocation = getInvocationContext(context);
    if (!invocation && !isTenantId(tenant)) {
      throw new BadRequestException(TENANT_ID_RULE);
    }
    if (tenantsOf(request.user).includes(tenant)) {
      return true;
    }
    if (invocation) {
      throw new OperationException('SECURITY_DENIED_005', { tenant });
    }
    throw new ForbiddenException(
      `Tenant '${tenant}' is not one of the caller's tenants.`,
    );
  }
}
