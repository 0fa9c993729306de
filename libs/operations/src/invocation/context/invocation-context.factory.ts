import { randomUUID } from 'node:crypto';
import { OperationException } from '../../errors/operation.exception.js';
import { libraryViolation } from '../../i18n/library-messages.js';
import type { InvocationContext } from './invocation-context.interface.js';
import type { InvocationOptions } from '../call/invocation-options.interface.js';
import type { CallPlan } from '../call/call-plan.js';
import type { OperationRequest } from '../pipeline/operation-request.js';
import { callReports, type LogLevel } from './call-reporter.js';
import { CLOSED_RESPONSE_STREAM } from './response-stream.js';
import { isTenantId } from './tenant-id.js';

const IDENTIFIER = /^[\x21-\x7e]{1,128}$/;

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
  call: CallPlan,
): InvocationContext {
  const { options, serializer, abort } = call;
  const tenant = single(options.headers['x-tenant-id']);
  if (tenant !== undefined && !isTenantId(tenant)) {
    throw OperationException.invalid([
      libraryViolation('X-Tenant-Id', 'tenantId'),
    ]);
  }
  // Made when first used: most calls report nothing.
  let reports: ReturnType<typeof callReports> | undefined;
  const report = () =>
    (reports ??= callReports(call.operation.id, options.reporter));
  return Object.freeze({
    carrier: options.carrier,
    target: options.target,
    operation: call.operation,
    get principal() {
      return request.user;
    },
    tenant,
    correlationId: call.correlationId,
    locale: call.locale,
    deadline: call.deadline,
    get signal() {
      return abort.signal;
    },
    responseStream: options.responseStream ?? CLOSED_RESPONSE_STREAM,
    serializeResult: (value: unknown) => serializer.serialize(value),
    beginCommit: () => abort.beginCommit(),
    reportProgress: (progress: number, total?: number, message?: string) =>
      report().reportProgress(progress, total, message),
    log: (level: LogLevel, message: string, data?: unknown) =>
      report().log(level, message, data),
  });
}

export function single(
  value: string | string[] | undefined,
): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
