import type { InvocationContext } from '../../interfaces/operation-contract.js';
import type { Type } from '@nestjs/common';
import { type CallPlan, questionsOf } from '../call/call-plan.js';
import type {
  AskOptions,
  ClientCapability,
  ClientRoot,
  Elicited,
  SampledMessage,
  SamplingRequest,
} from '../../asking/client-questions.js';
import type { OperationRequest } from '../pipeline/operation-request.js';
import {
  callReports,
  type CallReports,
  type LogLevel,
} from './call-reporter.js';

export function createInvocationContext(
  request: OperationRequest,
  call: CallPlan,
): InvocationContext {
  return new CallContext(request, call, call.tenantOf?.(call.headers));
}

/**
 * The plan of the call whose context is `context`: what the internal ports
 * (`callHooksOf`, `unitOfWorkOf`) read; undefined for any other object.
 */
export function callPlanOf(context: InvocationContext): CallPlan | undefined {
  return CallContext.planOf(context);
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
  declare readonly taskId: string | undefined;
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

  /** The plan of `context`'s call, when it is a call's context. */
  static planOf(context: object): CallPlan | undefined {
    return #call in context ? (context as CallContext).#call : undefined;
  }

  constructor(
    request: OperationRequest,
    call: CallPlan,
    tenant: string | undefined,
  ) {
    const { options } = call;
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
    this.taskId = call.hooks?.taskId;
    Object.defineProperty(this, 'signal', CallContext.#signal);
    Object.freeze(this);
  }

  reportProgress(progress: number, total?: number, message?: string): void {
    this.#callReports().reportProgress(progress, total, message);
  }

  elicit<T>(
    form: Type<T>,
    message: string,
    options?: AskOptions,
  ): Promise<Elicited<T>> {
    return questionsOf(this.#call).elicit(form, message, options);
  }

  elicitUrl(
    url: string,
    message: string,
    options?: AskOptions,
  ): Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }> {
    return questionsOf(this.#call).elicitUrl(url, message, options);
  }

  sample(
    request: SamplingRequest,
    options?: AskOptions,
  ): Promise<SampledMessage> {
    return questionsOf(this.#call).sample(request, options);
  }

  roots(options?: AskOptions): Promise<readonly ClientRoot[]> {
    return questionsOf(this.#call).roots(options);
  }

  canAsk(capability: ClientCapability): boolean | undefined {
    return questionsOf(this.#call).can(capability);
  }

  log(level: LogLevel, message: string, data?: unknown): void {
    this.#callReports().log(level, message, data);
  }

  #callReports(): CallReports {
    return (this.#reports ??= callReports(
      this.#call.operation.id,
      this.#call.hooks?.reporter,
    ));
  }
}
