import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  ApplicationConfig,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import { sanitizeInput } from './invocation/input/input.sanitizer.js';
import { type CallPlan, planCall } from './invocation/call/call-plan.js';
import type { CallOutcome } from './invocation/call/call-outcome.js';
import { failureOf } from './invocation/call/call-failure.js';
import { type SeenCall, recordOf } from './invocation/call/call-record.js';
import { untilStopped } from './invocation/call/call-stop.js';
import type { CallHooks } from './invocation/call/invocation-options.interface.js';
import {
  type CallScope,
  clsCallScope,
} from './invocation/call/cls-call-scope.js';
import {
  findInvocationDefaults,
  type InvocationDefaults,
} from './invocation/call/invocation-defaults.js';
import type { InputLimits } from './invocation/input/input-limits.js';
import { OperationRefusedError } from './errors/operation-refused.error.js';
import type { Carrier } from './interfaces/operation-contract.js';
import { OperationResponse } from './invocation/pipeline/operation-response.js';
import { serializeOrTellReshaped } from './invocation/output/reshaped-result.js';
import {
  keepCurrentCall,
  runAsCall,
} from './invocation/context/current-call.js';
import { createInvocationContext } from './invocation/context/invocation-context.factory.js';
import { OperationMessages } from './i18n/operation-messages.js';
import { confirmationOf } from './asking/confirmation.js';
import { operationGuards } from './invocation/pipeline/operation-guards.js';
import type {
  InvocationOptions,
  InvocationResult,
} from './invocation/call/invocation-options.interface.js';
import { OperationPipeline } from './invocation/pipeline/operation-pipeline.js';
import type { PipelineServices } from './invocation/pipeline/pipeline-parts.js';
import { createPipelineServices } from './invocation/pipeline/pipeline-services.js';
import { createOperationRequest } from './invocation/pipeline/operation-request.js';
import type { OperationDefinition } from './interfaces/operation-contract.js';
import { OperationRegistry } from './operation.registry.js';
import { callableKey, OPERATION_KIND } from './callable.js';

interface PreparedOperation {
  readonly definition: OperationDefinition;
  readonly pipeline: OperationPipeline;
}

/**
 * Runs one call of an operation the way Nest runs a controller route: a new
 * DI context and request object, then the app's guards, interceptors and
 * pipes, then the method. It is the one way every carrier calls an
 * operation; a call's failures come back as values, and only a call it
 * refuses to run (`OperationRefusedError`) is an exception.
 *
 * @publicApi
 */
@Injectable()
export class OperationInvoker implements OnApplicationBootstrap {
  private readonly logger = new Logger('Operations');
  private readonly prepared = new Map<string, PreparedOperation>();
  private services?: PipelineServices;
  private callDefaults?: InvocationDefaults;
  /** null: the app has no CLS. */
  private callScope?: CallScope | null;

  constructor(
    private readonly registry: OperationRegistry,
    private readonly contextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly config: ApplicationConfig,
    private readonly messages: OperationMessages,
  ) {}

  /**
   * Nest's bootstrap hook: looks up the app's defaults and checks Nest's
   * internals once. Each operation's pipeline is prepared on its first
   * call and kept: startup does not grow with operations nobody calls.
   */
  onApplicationBootstrap(): void {
    this.defaults();
    this.scope();
    if (this.registry.list().length > 0) {
      this.pipelineServices();
    }
  }

  /**
   * The classes of the app's guards that run on every call of
   * `operationId`: global ones (`APP_GUARD`, `app.useGlobalGuards()`), then
   * those of its provider's class and of its method (`@UseGuards()`). The
   * library's own permission check is not among them. For startup checks
   * that a guard an option names (such as McpModule's `authGuard`) runs
   * on the calls; ask after bootstrap.
   */
  guardsOf(operationId: string): readonly Function[] {
    const host = this.registry.host(operationId);
    if (!host) {
      throw new Error(`Unknown operation '${operationId}'.`);
    }
    return operationGuards(this.config, host);
  }

  /**
   * Runs the operation `operationId` once for a carrier, deciding once for
   * every carrier what the call runs with: that the operation is exposed on
   * `options.carrier` (else `OperationRefusedError`, and nothing runs; an
   * `internal` operation is exposed on none), its language (context and
   * failure text alike), its deadline (the carrier's `timeout`, else the
   * app's `InvocationDefaults`), its input limits and its correlation id.
   * Every failure of the call itself is a result with `ok: false`.
   * `hooks`: what the carrier gives the call beyond its options (its
   * response stream, its reporter, its observer); default: none.
   */
  invoke(
    operationId: string,
    options: InvocationOptions,
    hooks?: CallHooks,
  ): Promise<InvocationResult> {
    return this.invokeCallable(OPERATION_KIND, operationId, options, hooks);
  }

  /**
   * Runs the callable of another kind (a carrier's prompt or completer) as
   * `invoke` runs an operation: for carriers.
   */
  async invokeCallable(
    kind: string,
    id: string,
    options: InvocationOptions,
    hooks?: CallHooks,
  ): Promise<InvocationResult> {
    const operationId = id;
    const operation = this.callable(kind, id, options.carrier);
    const defaults = this.defaults();
    const locale = this.messages.callerLocale(options.headers, options.locale);
    const call = planCall(
      operation.definition,
      options,
      defaults,
      locale,
      hooks,
      confirmationOf(operation.definition, defaults, this.messages, locale),
    );
    const observe = hooks?.observe;
    const seen: SeenCall | undefined = observe ? {} : undefined;
    const running = this.run(operation, call, defaults.inputLimits, seen);
    const cancel = options.signal ?? hooks?.cancel;
    const outcome =
      call.timeout === undefined && cancel === undefined
        ? await running
        : await untilStopped(running, call, cancel, operationId);
    if (seen) {
      observe?.(recordOf(call, seen));
    }
    return outcome.ok
      ? outcome
      : {
          ok: false,
          failure: outcome.failure,
          text: this.messages.describe(outcome.failure, call.locale),
        };
  }

  private async run(
    operation: PreparedOperation,
    call: CallPlan,
    inputLimits: InputLimits | undefined,
    seen: SeenCall | undefined,
  ): Promise<CallOutcome> {
    const { options } = call;
    const response = new OperationResponse();
    try {
      const input = sanitizeInput(
        options.input ?? {},
        operation.definition.input,
        inputLimits,
      );
      const request = createOperationRequest(
        call.headers,
        options.request,
        input,
        (req) => createInvocationContext(req, call),
      );
      if (seen) {
        seen.request = request;
      }
      const scope = this.scope();
      const value = await (scope
        ? runAsCall(request, () =>
            scope(request, response, () =>
              operation.pipeline.handle(request, response),
            ),
          )
        : operation.pipeline.handle(request, response));
      const serialized = serializeOrTellReshaped(
        call.serializer,
        value,
        request,
      );
      // The result is final: the call's units of work commit it now.
      const committed = call.commits.settle(true);
      if (committed) {
        await committed;
      }
      const { value: sent, json, carried } = serialized;
      return carried === undefined
        ? { ok: true, value: sent, json }
        : { ok: true, value: sent, json, carried };
    } catch (error) {
      // Rolled back before the answer; a rollback's own failure does not replace the call's.
      await call.commits.settle(false)?.catch(() => undefined);
      return failureOf(
        error,
        response,
        operation.definition.id,
        call,
        this.logger,
      );
    }
  }

  /** The prepared callable, when it may run on `carrier`. */
  private callable(
    kind: string,
    operationId: string,
    carrier: Carrier,
  ): PreparedOperation {
    // The registry decides by kind: a prepared prompt's key (`prompt:x`) is
    // no operation id.
    const definition = this.registry.callable(kind, operationId);
    if (!definition) {
      throw new OperationRefusedError(operationId, carrier, 'unknown');
    }
    if (!definition.expose.includes(carrier)) {
      throw new OperationRefusedError(
        operationId,
        carrier,
        'not-exposed',
        definition.stability === 'internal',
      );
    }
    const key = callableKey(kind, operationId);
    return this.prepared.get(key) ?? this.prepare(key);
  }

  /** Where each call runs: its own CLS context when the app uses nestjs-cls. */
  private scope(): CallScope | undefined {
    if (this.callScope === undefined) {
      this.callScope = clsCallScope(this.moduleRef) ?? null;
      if (this.callScope) {
        keepCurrentCall();
      }
    }
    return this.callScope ?? undefined;
  }

  /** The app's `InvocationDefaults`, looked up once. */
  private defaults(): InvocationDefaults {
    return (this.callDefaults ??= findInvocationDefaults(this.moduleRef));
  }

  /** Prepares the callable of registry key `key` (see `callableKey`). */
  private prepare(key: string): PreparedOperation {
    const existing = this.prepared.get(key);
    if (existing) {
      return existing;
    }
    const host = this.registry.host(key);
    const definition = host && this.registry.entryOf(key);
    if (!definition || !host) {
      throw new Error(`Unknown operation '${key}'.`);
    }
    const prepared = {
      definition,
      pipeline: new OperationPipeline(
        definition,
        host,
        this.pipelineServices(),
      ),
    };
    this.prepared.set(key, prepared);
    return prepared;
  }

  private pipelineServices(): PipelineServices {
    return (this.services ??= createPipelineServices(
      this.contextCreator,
      this.moduleRef,
      this.config,
      this.defaults().permissionsOf,
    ));
  }
}
