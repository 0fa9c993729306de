import { randomUUID } from 'node:crypto';
import { OperationException } from '../../errors/operation.exception.js';
import { libraryViolation } from '../../i18n/library-messages.js';
import type { InvocationContext } from './invocation-context.interface.js';
import type { InvocationOptions } from '../call/invocation-options.interface.js';
import type { CallPlan } from '../call/call-plan.js';
import type { OperationRequest } from '../pipeline/operation-request.js';
import {
  callReports,
  type CallReports,
  type LogLevel,
} from './call-reporter.js';
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
  const tenant = single(call.options.headers['x-tenant-id']);
  if (tenant !== undefined && !isTenantId(tenant)) {
    throw OperationException.invalid([
      libraryViolation('X-Tenant-Id', 'tenantId'),
    ]);
  }
  return new CallContext(request, call, tenant);
}

/**
 * A call's invocation context: frozen, its properties its own and
 * enumerable in the documented order (all `declare`d, so that the
 * constructor defines them in that order), `principal` and `signal` read when
 * asked. The two getters are shared by every context (an object literal's
 * would be made anew, with a shape of its own, on every call).
 */
class CallContext implements InvocationContext {
  declare readonly principal: unknown;
  declare readonly signal: AbortSignal;
  declare readonly carrier: InvocationContext['carrier'];
  declare readonly target: string;
  declare readonly operation: InvocationContext['operation'];
  declare readonly tenant: string | undefined;
  declare readonly correlationId: string;
  declare readonly locale: string;
  declare readonly deadline: Date | undefined;
  declare readonly responseStream: InvocationContext['responseStream'];
  declare readonly serializeResult: InvocationContext['serializeResult'];
  readonly #request: OperationRequest;
  readonly #call: CallPlan;
  /** Made when first used: most calls report nothing. */
  #reports?: CallReports;

  static readonly #principal: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext) {
      return this.#request.user;
    },
  };

  static readonly #signal: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext) {
      return this.#call.abort.signal;
    },
  };

  constructor(
    request: OperationRequest,
    call: CallPlan,
    tenant: string | undefined,
  ) {
    const { options, serializer } = call;
    this.#request = request;
    this.#call = call;
    this.carrier = options.carrier;
    this.target = options.target;
    this.operation = call.operation;
    Object.defineProperty(this, 'principal', CallContext.#principal);
    this.tenant = tenant;
    this.correlationId = call.correlationId;
    this.locale = call.locale;
    this.deadline = call.deadline;
    Object.defineProperty(this, 'signal', CallContext.#signal);
    this.responseStream = options.responseStream ?? CLOSED_RESPONSE_STREAM;
    this.serializeResult = (value) => serializer.serialize(value);
    Object.freeze(this);
  }

  beginCommit(): boolean {
    return this.#call.abort.beginCommit();
  }

  holdCommit(ended: Promise<unknown>): Promise<boolean> {
    return this.#call.commits.hold(ended);
  }

  reportProgress(progress: number, total?: number, message?: string): void {
    this.#callReports().reportProgress(progress, total, message);
  }

  log(level: LogLevel, message: string, data?: unknown): void {
    this.#callReports().log(level, message, data);
  }

  #callReports(): CallReports {
    return (this.#reports ??= callReports(
      this.#call.operation.id,
      this.#call.options.reporter,
    ));
  }
}

export function single(
  value: string | string[] | undefined,
): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
