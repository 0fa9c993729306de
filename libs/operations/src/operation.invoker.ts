import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  ApplicationConfig,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import { OperationAuthorizationGuard } from './authorization/operation-authorization.guard.js';
import { toOperationFailure } from './errors/failure.mapper.js';
import {
  OperationFailure,
  operationFailure,
} from './errors/operation-failure.js';
import { CallAbort } from './invocation/call-abort.js';
import { installValidationMetadataCache } from './invocation/validation-metadata-cache.js';
import { startCallTimeout } from './invocation/call-timeout.js';
import { sanitizeInput } from './invocation/input.sanitizer.js';
import { resultOf } from './invocation/call-result.js';
import { OperationResponse } from './invocation/operation-response.js';
import {
  correlationIdOf,
  createInvocationContext,
  single,
} from './invocation/invocation-context.factory.js';
import { OperationMessages } from './i18n/operation-messages.js';
import { operationGuards } from './invocation/operation-guards.js';
import type {
  InvocationOptions,
  InvocationResult,
} from './invocation/invocation-options.interface.js';
import {
  OperationPipeline,
  type PipelineServices,
} from './invocation/operation-pipeline.js';
import { createOperationRequest } from './invocation/operation-request.js';
import {
  assertNestInternals,
  nestPipesOf,
  scopedGlobalEnhancers,
} from './nest-internals.js';
import type { OperationDefinition } from './interfaces/operation-definition.interface.js';
import { OperationRegistry } from './operation.registry.js';

interface PreparedOperation {
  readonly definition: OperationDefinition;
  readonly pipeline: OperationPipeline;
}

/**
 * Runs one call of an operation the way Nest runs a controller route: a new
 * DI context and request object, then the app's guards, interceptors and
 * pipes, then the method. Every carrier calls it; failures come back as
 * values, never as exceptions.
 *
 * @publicApi
 */
@Injectable()
export class OperationInvoker implements OnApplicationBootstrap {
  private readonly logger = new Logger('Operations');
  private readonly prepared = new Map<string, PreparedOperation>();
  private services?: PipelineServices;

  constructor(
    private readonly registry: OperationRegistry,
    private readonly contextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
    private readonly config: ApplicationConfig,
    private readonly messages: OperationMessages,
  ) {}

  onApplicationBootstrap(): void {
    for (const definition of this.registry.list()) {
      this.prepare(definition.id);
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

  /** Runs the operation `operationId` once with the carrier's input and headers. */
  async invoke(
    operationId: string,
    options: InvocationOptions,
  ): Promise<InvocationResult> {
    const operation = this.prepare(operationId);
    const correlationId = correlationIdOf(options.headers);
    const abort = new CallAbort();
    const deadline =
      options.timeout !== undefined
        ? new Date(Date.now() + options.timeout)
        : undefined;
    const call = this.run(operation, options, correlationId, abort, deadline);
    const timeout =
      options.timeout === undefined
        ? undefined
        : startCallTimeout(options.timeout, abort, operationId);
    try {
      return await (timeout ? Promise.race([call, timeout.expired]) : call);
    } finally {
      timeout?.cancel();
    }
  }

  private async run(
    operation: PreparedOperation,
    options: InvocationOptions,
    correlationId: string,
    abort: CallAbort,
    deadline: Date | undefined,
  ): Promise<InvocationResult> {
    try {
      const input = sanitizeInput(
        options.input ?? {},
        operation.definition.input,
        options.inputLimits,
      );
      const locale = this.messages.localeOf(
        options.locale ?? single(options.headers['accept-language']),
      );
      const request = createOperationRequest(
        withLocale(options, locale),
        options.target,
        input,
        (req) =>
          createInvocationContext(
            req,
            operation.definition,
            options,
            correlationId,
            abort,
            deadline,
            locale,
          ),
      );
      const handler = await operation.pipeline.handlerFor(request);
      const value = await handler(request, new OperationResponse());
      return {
        ok: true,
        value: resultOf(request, operation.definition, value).value,
      };
    } catch (error) {
      const failure = toOperationFailure(error);
      if (failure) {
        return fail(failure);
      }
      if (abort.isReason(error)) {
        // Given up at its deadline, and answered so already.
        return fail(
          operationFailure('INTERNAL_TIMEOUT_001', {
            seconds: (options.timeout ?? 0) / 1000,
          }),
        );
      }
      this.logger.error(
        `Operation ${operation.definition.id} failed unexpectedly (correlation id ${correlationId})`,
        error instanceof Error ? error.stack : String(error),
      );
      return fail(operationFailure('INTERNAL_ERROR_001', { correlationId }));
    }
  }

  private prepare(operationId: string): PreparedOperation {
    const existing = this.prepared.get(operationId);
    if (existing) {
      return existing;
    }
    const definition = this.registry.get(operationId);
    const host = this.registry.host(operationId);
    if (!definition || !host) {
      throw new Error(`Unknown operation '${operationId}'.`);
    }
    const prepared = {
      definition,
      pipeline: new OperationPipeline(
        definition,
        host,
        this.pipelineServices(),
      ),
    };
    this.prepared.set(operationId, prepared);
    return prepared;
  }

  private pipelineServices(): PipelineServices {
    if (!this.services) {
      assertNestInternals(this.contextCreator, this.moduleRef, this.config);
      installValidationMetadataCache();
      this.services = {
        contextCreator: this.contextCreator,
        pipes: nestPipesOf(this.contextCreator),
        authorization: new OperationAuthorizationGuard(),
        scopedEnhancers: scopedGlobalEnhancers(this.config),
      };
    }
    return this.services;
  }
}

/**
 * The call's headers. A language given apart from them (a `--locale`) is
 * also its `Accept-Language`, so that the app's own language resolvers
 * (nestjs-i18n's `I18nContext` in handlers) see the same language.
 */
function withLocale(
  options: InvocationOptions,
  locale: string,
): InvocationOptions['headers'] {
  return options.locale !== undefined &&
    options.headers['accept-language'] === undefined
    ? { ...options.headers, 'accept-language': locale }
    : options.headers;
}

function fail(failure: OperationFailure): InvocationResult {
  return { ok: false, failure };
}
