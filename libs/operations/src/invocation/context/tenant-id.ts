/** 1 to 128 visible ASCII characters. */
const TENANT_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Whether `value` may name a tenant (`X-Tenant-Id`, `--tenant`): 1 to 128
 * visible ASCII characters. Operation calls refuse any other tenant with
 * `VALIDATION_INVALID_001`; an app's REST routes can check their header
 * the same way.
 *
 * @publicApi
 */
export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}
