import { getInvocationContext } from '@nestops/operations';
import type { Principal } from './principal';

/** The tenant of requests that name none and carry no credentials. */
export const DEFAULT_TENANT = 'default';

/** What the tenant of a request is read from. */
export interface TenantSource {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly user?: Principal;
}

/**
 * The tenant a request names: the operation call's tenant, or the
 * `X-Tenant-Id` header of a REST request; undefined when it names none.
 */
export function requestedTenant(request: TenantSource): string | undefined {
  const invocation = getInvocationContext(request);
  if (invocation) {
    return invocation.tenant;
  }
  const header = request.headers['x-tenant-id'];
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The tenant a request acts for: the one it names, else the caller's first
 * tenant, else `default`. `ApiKeyGuard` has refused a named tenant that
 * the caller does not hold.
 */
export function tenantOf(request: TenantSource): string {
  return (
    requestedTenant(request) ?? tenantsOf(request.user)[0] ?? DEFAULT_TENANT
  );
}

/** The tenants a caller holds; anonymous callers hold only `default`. */
export function tenantsOf(principal: Principal | undefined): readonly string[] {
  return principal?.tenants ?? [DEFAULT_TENANT];
}
