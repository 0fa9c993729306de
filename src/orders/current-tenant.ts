import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { tenantOf, type TenantSource } from '../auth/tenant';

/**
 * The tenant of the current request or operation call: the one it names
 * (`X-Tenant-Id`, `--tenant`), else the caller's first tenant. One instance
 * per request or call; read after the guards, which refuse a tenant the
 * caller does not hold.
 */
@Injectable({ scope: Scope.REQUEST })
export class CurrentTenant {
  constructor(@Inject(REQUEST) private readonly request: TenantSource) {}

  get id(): string {
    return tenantOf(this.request);
  }
}
