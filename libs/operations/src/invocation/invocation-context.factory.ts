import { randomUUID } from 'node:crypto';
import { OperationException } from '../errors/operation.exception';
import type { OperationDefinition } from '../interfaces/operation-definition.interface';
import type { InvocationContext } from './invocation-context.interface';
import type { InvocationOptions } from './invocation-options.interface';
import type { OperationRequest } from './operation-request';
import { isTenantId } from './tenant-id';

const IDENTIFIER = /^[\x21-\x7e]{1,128}$/;
const DEFAULT_LOCALE = 'en-US';

/**
 * The correlation id of a call: the caller's `X-Correlation-Id` when it is 1
 * to 128 visible ASCII characters, else a new UUID. Carriers use it for
 * their own logs too, so one id names a call everywhere.
 *
 * @publicApi
 */
export function correlationIdOf(headers: InvocationOptions['headers']): string {
  const given = single(headers['x-correlation-id']);
  return given !== undefined && IDENTIFIER.test(given) ? given : randomUUID();
}

export function createInvocationContext(
  request: OperationRequest,
  operation: OperationDefinition,
  options: InvocationOptions,
  correlationId: string,
  signal: AbortSignal,
  deadline: Date | undefined,
): InvocationContext {
  const tenant = single(options.headers['x-tenant-id']);
  if (tenant !== undefined && !isTenantId(tenant)) {
    throw new OperationException('VALIDATION_INVALID_001', {
      detail: 'X-Tenant-Id must be 1 to 128 visible ASCII characters',
    });
  }
  return Object.freeze({
    carrier: options.carrier,
    target: options.target,
    operation,
    get principal() {
      return request.user;
    },
    tenant,
    correlationId,
    locale: localeOf(single(options.headers['accept-language'])),
    deadline,
    signal,
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function localeOf(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(first)
    ? first
    : DEFAULT_LOCALE;
}
