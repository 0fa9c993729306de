import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { type ContextId, ContextIdFactory } from '@nestjs/core';
import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import {
  hasFiltersMetadata,
  routeArgsMetadataKey,
} from '../../nest/nest-core.adapter.js';
import {
  bindContextId,
  exceptionFiltersOf,
  loadEnhancersForCall,
  moduleKeyOf,
  moduleRefOf,
} from '../../nest/nest-context.adapter.js';
import type { OperationHost } from '../../operation.registry.js';
import { OperationException } from '../../errors/operation.exception.js';
import { NoInputPipe } from '../input/no-input.pipe.js';
import { invocationOf, type OperationRequest } from './operation-request.js';
import { dtoValidationPipe } from '../input/dto-validation-pipe.js';
import type { OperationResponse } from './operation-response.js';
import { filteredException } from './operation-filters.js';
import { markReturned } from '../output/reshaped-result.js';
import {
  CONTEXT_ARGUMENT,
  CONTEXT_OPTIONS,
  type OperationHandler,
  PARAMS,
  PARAMS_FACTORY,
  PARAMS_OPTIONS,
  type ParamsResolver,
  type PipedRequest,
  type PipelineServices,
  PIPES,
  applyPipes,
  asHandlerOf,
  withMetadataOf,
} from './pipeline-parts.js';

/**
 * One operation's way through Nest's pipeline, prepared at bootstrap.
 *
 * Nest reads a handler's guards, interceptors and pipes from the function it
 * is given. That function is the library's own, carrying a copy of the
 * method's metadata with the authorization guard appended, so the user's
 * classes and methods are never written to. It runs the app's pipes and the
 * operation's validation on the input (typed as the declared DTO, whatever
 * the parameter's type), then the method with `(input, context)`, the
 * parameters of the app's own parameter decorators filled as on a route.
 * The app's exception filters, where any apply, run around it all.
 */
export class OperationPipeline {
  private readonly callback: (...args: unknown[]) => Promise<unknown>;
  /** Returns the arguments Nest resolved for the method's parameter decorators. */
  private readonly paramsCallback?: (...args: unknown[]) => unknown[];
  /** Whether any exception filter can apply: global ones, or `@UseFilters()` on the class or method. */
  private readonly filtered: boolean;
  private readonly validation: PipeTransform;
  private readonly input: ArgumentMetadata;
  private readonly moduleKey: string;
  /** Per call: the provider is request-scoped, or global enhancers are. */
  private readonly perCall: boolean;
  private readonly staticHandler?: OperationHandler;

  constructor(
    private readonly definition: OperationDefinition,
    private readonly host: OperationHost,
    private readonly services: PipelineServices,
  ) {
    this.moduleKey = moduleKeyOf(host.wrapper);
    this.validation = definition.input
      ? dtoValidationPipe(definition.input)
      : new NoInputPipe();
    this.input = Object.freeze({
      type: 'body',
      metatype: definition.input,
      data: undefined,
    });
    this.callback = this.createCallback();
    if (host.decorated.length > 0) {
      this.paramsCallback = withMetadataOf(
        this.method(),
        (...args: unknown[]) => args,
      );
    }
    this.filtered =
      services.globalFilters ||
      hasFiltersMetadata(host.type) ||
      hasFiltersMetadata(this.method());
    this.perCall = !host.isStatic || services.scopedEnhancers.length > 0;
    if (!this.perCall) {
      this.staticHandler = this.createHandler(host.wrapper.instance as object);
    }
  }

  /**
   * Runs one call through the operation's handler: built once for
   * singletons (then the call costs no promise of its own here), per call
   * otherwise.
   */
  handle(
    request: OperationRequest,
    response: OperationResponse,
  ): Promise<unknown> {
    return this.staticHandler
      ? this.staticHandler(request, response)
      : this.perCallHandler(request).then((handler) =>
          handler(request, response),
        );
  }

  /** The handler of one call of a request-scoped provider, or with request-scoped enhancers. */
  private async perCallHandler(
    request: OperationRequest,
  ): Promise<OperationHandler> {
    const { wrapper } = this.host;
    const contextId = ContextIdFactory.getByRequest(request);
    bindContextId(request, contextId);
    // As Nest's router does: with a durable context (a ContextIdStrategy),
    // REQUEST is the strategy's payload for durable trees and the request
    // merged with it otherwise.
    moduleRefOf(wrapper).registerRequestByContextId(
      contextId.getParent
        ? wrapper.isDependencyTreeDurable()
          ? contextId.payload
          : Object.assign(request, contextId.payload)
        : request,
      contextId,
    );
    await loadEnhancersForCall(
      this.services.scopedEnhancers,
      contextId,
      wrapper,
    );
    const instance = this.host.isStatic
      ? (wrapper.instance as object)
      : await moduleRefOf(wrapper).resolve<unknown, object>(
          wrapper.token,
          contextId,
          { strict: true },
        );
    return this.createHandler(instance, contextId);
  }

  private createHandler(
    instance: object,
    contextId?: ContextId,
  ): OperationHandler {
    const { contextCreator, pipes } = this.services;
    const inquirerId = this.host.wrapper.id;
    const target = contextCreator.create(
      instance,
      this.callback,
      this.host.methodName,
      undefined,
      undefined,
      contextId,
      inquirerId,
      CONTEXT_OPTIONS,
    );
    const callPipes = pipes(
      instance,
      this.callback,
      this.moduleKey,
      contextId,
      inquirerId,
    );
    const params =
      this.paramsCallback &&
      (this.services.paramsContextCreator.create(
        instance,
        this.paramsCallback,
        this.host.methodName,
        routeArgsMetadataKey(),
        PARAMS_FACTORY,
        contextId,
        inquirerId,
        PARAMS_OPTIONS,
      ) as ParamsResolver);
    const filters = this.filtered
      ? exceptionFiltersOf(
          contextCreator,
          instance,
          this.callback,
          this.moduleKey,
          contextId,
          inquirerId,
        )
      : undefined;
    const run: OperationHandler = (request, response) => {
      (request as PipedRequest)[PIPES] = callPipes;
      if (params) {
        (request as PipedRequest)[PARAMS] = params;
      }
      return target(request, response) as Promise<unknown>;
    };
    return filters
      ? async (request, response) => {
          try {
            return await run(request, response);
          } catch (error) {
            throw await filteredException(error, filters, request, response);
          }
        }
      : run;
  }

  /** The operation's method, on its class. */
  private method(): object {
    return (this.host.type as { prototype: Record<string, object> }).prototype[
      this.host.methodName
    ];
  }

  /**
   * The input through the app's pipes, then the operation's validation.
   * When an app pipe refuses it (an app-wide `ValidationPipe` answers with
   * English strings only), the operation's validation of the same input
   * names each failing field so that the failure can be translated; input
   * it accepts keeps the app pipe's own failure.
   */
  private async pipeInput(
    body: unknown,
    app: PipeTransform[],
  ): Promise<unknown> {
    try {
      return await applyPipes(body, this.input, [...app, this.validation]);
    } catch (error) {
      // The operation's validation throws OperationException; anything else
      // came from an app pipe.
      if (app.length > 0 && !(error instanceof OperationException)) {
        await this.validation.transform(body, this.input);
      }
      throw error;
    }
  }

  /** The function Nest runs as the handler, with the method's metadata. */
  private createCallback(): (...args: unknown[]) => Promise<unknown> {
    const { methodName, decorated } = this.host;
    // What the method returned, kept where an output contract could break.
    const returned = this.definition.outputSchema
      ? markReturned
      : (_request: object, value: unknown) => value;
    const pipeInput = (body: unknown, app: PipeTransform[]) =>
      this.pipeInput(body, app);
    const callback = async function (
      this: Record<string, unknown>,
      ...args: unknown[]
    ): Promise<unknown> {
      const request = args[0] as PipedRequest;
      const app = request[PIPES] ?? [];
      try {
        const [value, context] = await Promise.all([
          pipeInput(request.body, app),
          applyPipes(invocationOf(request), CONTEXT_ARGUMENT, app),
        ]);
        const method = this[methodName] as (...params: unknown[]) => unknown;
        const params = request[PARAMS];
        if (!params) {
          return returned(request, await method.call(this, value, context));
        }
        // The decorated parameters' values, from the call's execution context.
        const values = await params(request, args[1] as OperationResponse);
        values[0] = value;
        if (!decorated.includes(1)) {
          values[1] = context;
        }
        return returned(request, await method.apply(this, values));
      } catch (error) {
        // For the interceptors that read the status after the handler.
        (args[1] as OperationResponse).failedWith(error);
        throw error;
      }
    };
    return asHandlerOf(
      this.method(),
      callback,
      this.services.authorization,
      methodName,
    );
  }
}
