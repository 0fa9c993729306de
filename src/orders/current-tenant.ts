import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { getInvocationContext } from '@nestops/operations';

export const DEFAULT_TENANT = 'default';

/**
 * The tenant of the current request: the operation call's tenant, or the
 * `X-Tenant-Id` header of a REST request. One instance per request or call.
 */
@Injectable({ scope: Scope.REQUEST })
export class CurrentTenant {
  readonly id: string;

  constructor(
    @Inject(REQUEST)
    request: {
      headers: Record<string, string | string[] | undefined>;
    },
  ) {
    const header = request.headers['x-tenant-id'];
    this.id =
      getInvocationContext(request)?.tenant ??
      (typeof header === 'string' && header.length > 0
        ? header
        : DEFAULT_TENANT);
  }
}
