import { getInvocationContext, OperationException } from '@nestops/operations';
import type { Principal } from './principal';

/** The tenant of requests that name none and carry no credentials. */
export const DEFAULT_TENANT = 'default';

/** 1 to 128 visible ASCII characters. */
const TENANT_ID = /^[\x21-\x7e]{1,128}$/;

/** What the sample says of an ill-formed `X-Tenant-Id`. */
export const TENANT_ID_RULE =
  'X-Tenant-Id must be 1 to 128 visible ASCII characters';

/**
 * Whether `value` may name a tenant (`X-Tenant-Id`, `--tenant`): 1 to 128
 * visible ASCII characters.
 */
export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}

/**
 * The tenant an operation call names (McpModule's `tenantOf`): its
 * `X-Tenant-Id`, undefined when it names none; an ill-formed one fails the
 * call with `VALIDATION_INVALID_001`.
 */
export function tenantOfHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  const header = headers['x-tenant-id'];
  const tenant = Array.isArray(header) ? header[0] : header;
  if (tenant !== undefined && !isTenantId(tenant)) {
    throw OperationException.invalid([
      {
        property: 'X-Tenant-Id',
        constraint: 'tenantId',
        params: {},
        message: TENANT_ID_RULE,
      },
    ]);
  }
  return tenant;
}

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
