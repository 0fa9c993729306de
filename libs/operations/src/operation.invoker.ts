import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  PipeTransform,
  ValidationPipe,
} from '@nestjs/common';
import {
  ContextId,
  ContextIdFactory,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import { instanceToPlain } from 'class-transformer';
import { OperationAuthorizationGuard } from './authorization/operation-authorization.guard';
import { toOperationFailure } from './errors/failure.mapper';
import { OperationFailure, operationFailure } from './errors/operation-failure';
import { sanitizeInput } from './invocation/input.sanitizer';
import { NoInputPipe } from './invocation/no-input.pipe';
import { OperationResponse } from './invocation/operation-response';
import {
  correlationIdOf,
  createInvocationContext,
} from './invocation/invocation-context.factory';
import type {
  InvocationOptions,
  InvocationResult,
} from './invocation/invocation-options.interface';
import {
  OperationParamsFactory,
  OperationParamType,
} from './invocation/operation-params.factory';
import {
  createOperationRequest,
  OperationRequest,
} from './invocation/operation-request';
import type { OperationDefinition } from './interfaces/operation-definition.interface';
import { GUARDS_METADATA, moduleRefOf } from './nest-internals';
import { OperationHost, OperationRegistry } from './operation.registry';

const ARGS_METADATA = 'operations:args';
const CONTEXT_OPTIONS = { guards: true, interceptors: true, filters: false };

type Handler = (
  request: OperationRequest,
  response: OperationResponse,
) => Promise<unknown>;

interface PreparedOperation {
  readonly definition: OperationDefinition;
  readonly host: OperationHost;
  /** Built once at bootstrap for singleton providers. */
  readonly handler?: Handler;
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
  private readonly paramsFactory = new OperationParamsFactory();
  private readonly authorization = new OperationAuthorizationGuard();
  private readonly prepared = new Map<string, PreparedOperation>();

  constructor(
    private readonly registry: OperationRegistry,
    private readonly contextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
  ) {}

  onApplicationBootstrap(): void {
    for (const definition of this.registry.list()) {
      this.prepare(definition.id);
    }
  }

  /** Runs the operation `operationId` once with the carrier's input and headers. */
  async invoke(
    operationId: string,
    options: InvocationOptions,
  ): Promise<InvocationResult> {
    const operation = this.prepare(operationId);
    const correlationId = correlationIdOf(options);
    const abort = new AbortController();
    const deadline =
      options.timeout !== undefined
        ? new Date(Date.now() + options.timeout)
        : undefined;
    let timer: NodeJS.Timeout | undefined;
    const call = this.run(
      operation,
      options,
      correlationId,
      abort.signal,
      deadline,
    );
    const timeout =
      options.timeout === undefined
        ? undefined
        : new Promise<InvocationResult>((resolve) => {
            timer = setTimeout(() => {
              abort.abort(new Error(`Operation ${operationId} timed out.`));
              resolve(
                fail(
                  operationFailure('INTERNAL_TIMEOUT_001', {
                    seconds: Number(((options.timeout ?? 0) / 1000).toFixed(3)),
                  }),
                ),
              );
            }, options.timeout);
          });
    try {
      return await (timeout ? Promise.race([call, timeout]) : call);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(
    operation: PreparedOperation,
    options: InvocationOptions,
    correlationId: string,
    signal: AbortSignal,
    deadline: Date | undefined,
  ): Promise<InvocationResult> {
    try {
      const input = sanitizeInput(options.input ?? {});
      const request = createOperationRequest(
        options.headers,
        options.target,
        input,
        (req) =>
          createInvocationContext(
            req,
            operation.definition,
            options,
            correlationId,
            signal,
            deadline,
          ),
      );
      const handler =
        operation.handler ?? (await this.scopedHandler(operation, request));
      const value = await handler(request, new OperationResponse());
      return {
        ok: true,
        value: value === undefined ? null : instanceToPlain(value),
      };
    } catch (error) {
      const failure = toOperationFailure(error);
      if (failure) {
        return fail(failure);
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
    this.describeArguments(definition, host);
    const handler = host.isStatic
      ? this.createHandler(
          host,
          host.wrapper.instance as Record<string, unknown>,
        )
      : undefined;
    const prepared = { definition, host, handler };
    this.prepared.set(operationId, prepared);
    return prepared;
  }

  private async scopedHandler(
    operation: PreparedOperation,
    request: OperationRequest,
  ): Promise<Handler> {
    const { host } = operation;
    const contextId = ContextIdFactory.getByRequest(request);
    // As Nest's router does: with a durable context (a ContextIdStrategy),
    // REQUEST is the strategy's payload for durable trees and the request
    // merged with it otherwise.
    this.moduleRef.registerRequestByContextId(
      contextId.getParent
        ? host.wrapper.isDependencyTreeDurable()
          ? contextId.payload
          : Object.assign(request, contextId.payload)
        : request,
      contextId,
    );
    const instance = await moduleRefOf(host.wrapper).resolve<
      unknown,
      Record<string, unknown>
    >(host.wrapper.token, contextId, { strict: true });
    return this.createHandler(host, instance, contextId);
  }

  private createHandler(
    host: OperationHost,
    instance: Record<string, unknown>,
    contextId?: ContextId,
  ): Handler {
    const method = instance[host.methodName] as (...args: unknown[]) => unknown;
    return this.contextCreator.create(
      instance,
      method,
      host.methodName,
      ARGS_METADATA,
      this.paramsFactory,
      contextId,
      host.wrapper.id,
      CONTEXT_OPTIONS,
    );
  }

  /**
   * Once per operation: the handler receives `(input, context)`, the input is
   * validated against the operation's DTO, and the contract's authorization
   * guard runs after the app's own guards.
   */
  private describeArguments(
    definition: OperationDefinition,
    host: OperationHost,
  ): void {
    const inputPipes: PipeTransform[] = [
      definition.input
        ? new ValidationPipe({
            expectedType: definition.input,
            transform: true,
            whitelist: true,
            forbidNonWhitelisted: true,
            forbidUnknownValues: true,
          })
        : new NoInputPipe(),
    ];
    Reflect.defineMetadata(
      ARGS_METADATA,
      {
        [`${OperationParamType.INPUT}:0`]: { index: 0, pipes: inputPipes },
        [`${OperationParamType.CONTEXT}:1`]: { index: 1, pipes: [] },
      },
      host.type,
      host.methodName,
    );
    const method = (host.type as { prototype: Record<string, object> })
      .prototype[host.methodName];
    const guards: unknown[] =
      Reflect.getMetadata(GUARDS_METADATA, method) ?? [];
    Reflect.defineMetadata(
      GUARDS_METADATA,
      [
        ...guards.filter((guard) => guard !== this.authorization),
        this.authorization,
      ],
      method,
    );
  }
}

function fail(failure: OperationFailure): InvocationResult {
  return { ok: false, failure };
}
