import {
  BadRequestException,
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  getInvocationContext,
  isTenantId,
  OperationException,
} from '@nestops/operations';
import { API_KEYS } from './api-keys';
import type { Principal } from './principal';
import { PERMISSIONS_METADATA } from './require-permissions.decorator';
import { requestedTenant, type TenantSource, tenantsOf } from './tenant';

/**
 * An ordinary HTTP guard: `Authorization: ApiKey <key>` sets `request.user`;
 * an unknown key is rejected; no header means anonymous. Routes marked with
 * `@RequirePermissions()` also need those permissions. A tenant named by
 * `X-Tenant-Id` (or the call's tenant) must be one the key holds.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<TenantSource & { user?: Principal }>();
    const header = request.headers.authorization;
    if (header !== undefined) {
      const key =
        typeof header === 'string'
          ? /^ApiKey\s+(\S+)$/i.exec(header)?.[1]
          : undefined;
      const principal = key === undefined ? undefined : API_KEYS.get(key);
      if (!principal) {
        throw new UnauthorizedException('Invalid API key.');
      }
      request.user = principal;
    }
    this.checkTenant(context, request);
    const required =
      this.reflector.getAllAndOverride<string[] | undefined>(
        PERMISSIONS_METADATA,
        [context.getHandler(), context.getClass()],
      ) ?? [];
    if (required.length === 0) {
      return true;
    }
    if (!request.user) {
      throw new UnauthorizedException('Authentication is required.');
    }
    const missing = required.find(
      (p) => !request.user?.permissions.includes(p),
    );
    if (missing !== undefined) {
      throw new ForbiddenException(`Permission '${missing}' is missing.`);
    }
    return true;
  }

  /**
   * Refuses a tenant the caller does not hold: `SECURITY_DENIED_005` for an
   * operation call, 403 on REST. Operation calls have checked its form
   * already; REST checks it here the same way (400).
   */
  private checkTenant(context: ExecutionContext, request: TenantSource): void {
    const tenant = requestedTenant(request);
    if (tenant === undefined) {
      return;
    }
    const invocation = getInvocationContext(context);
    if (!invocation && !isTenantId(tenant)) {
      throw new BadRequestException(
        'X-Tenant-Id must be 1 to 128 visible ASCII characters',
      );
    }
    if (tenantsOf(request.user).includes(tenant)) {
      return;
    }
    if (invocation) {
      throw new OperationException('SECURITY_DENIED_005', { tenant });
    }
    throw new ForbiddenException(
      `Tenant '${tenant}' is not one of the caller's tenants.`,
    );
  }
}
