/* eslint-disable @typescript-eslint/no-require-imports -- Nest's private modules are loaded on first use, so that a release without one fails the assertion with its name */
/**
 * The one place that touches Nest internals (they move between majors):
 * private modules of `@nestjs/core` and `@nestjs/common`, and private
 * members of Nest's classes. `assertNestInternals()` checks at bootstrap
 * that each one is still there, so a Nest release that moves one stops the
 * app with a message naming it and the installed version, instead of
 * silently skipping part of the pipeline.
 */
import type {
  ArgumentMetadata,
  ArgumentsHost,
  PipeTransform,
} from '@nestjs/common';
import type {
  ApplicationConfig,
  ContextId,
  ExternalContextCreator,
} from '@nestjs/core';
import { ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { missingInternalsMessage } from './internals.messages.js';
import {
  installedVersion,
  loadPrivateModule,
  missingMethods,
  missingOf,
} from './private-module.js';

export type { InstanceWrapper };

type RequestConstants =
  typeof import('@nestjs/core/router/request/request-constants.js');
type RouteParamtypesModule =
  typeof import('@nestjs/common/enums/route-paramtypes.enum.js');
type CommonConstants = typeof import('@nestjs/common/constants.js');
type GuardConstants = typeof import('@nestjs/core/guards/constants.js');
type ContextHostModule =
  typeof import('@nestjs/core/helpers/execution-context-host.js');

/** The private modules of Nest that the library reads, as loaded. */
export interface NestPrivateModules {
  /** `@nestjs/core/router/request/request-constants.js` */
  readonly requestConstants?: Partial<RequestConstants>;
  /** `@nestjs/common/enums/route-paramtypes.enum.js` */
  readonly routeParamtypes?: Partial<RouteParamtypesModule>;
  /** `@nestjs/common/constants.js` */
  readonly commonConstants?: Partial<CommonConstants>;
  /** `@nestjs/core/guards/constants.js` */
  readonly guardConstants?: Partial<GuardConstants>;
  /** `@nestjs/core/helpers/execution-context-host.js` */
  readonly contextHost?: Partial<ContextHostModule>;
}

interface Loaded {
  readonly requestConstants: RequestConstants;
  readonly routeParamtypes: RouteParamtypesModule;
  readonly commonConstants: CommonConstants;
  readonly guardConstants: GuardConstants;
  readonly contextHost: ContextHostModule;
}

/** Nest's private modules, each undefined where the installed release lacks it. */
export function loadNestPrivateModules(): NestPrivateModules {
  return {
    requestConstants: loadPrivateModule(
      () =>
        require('@nestjs/core/router/request/request-constants.js') as RequestConstants,
    ),
    routeParamtypes: loadPrivateModule(
      () =>
        require('@nestjs/common/enums/route-paramtypes.enum.js') as RouteParamtypesModule,
    ),
    commonConstants: loadPrivateModule(
      () => require('@nestjs/common/constants.js') as CommonConstants,
    ),
    guardConstants: loadPrivateModule(
      () => require('@nestjs/core/guards/constants.js') as GuardConstants,
    ),
    contextHost: loadPrivateModule(
      () =>
        require('@nestjs/core/helpers/execution-context-host.js') as ContextHostModule,
    ),
  };
}

/** The installed Nest, as the messages name it. */
export function installedNest(): string {
  return `@nestjs/core ${installedVersion(() => require('@nestjs/core/package.json'))} (@nestjs/common ${installedVersion(() => require('@nestjs/common/package.json'))})`;
}

const PURPOSE = "run operations through Nest's pipeline";

function missingModuleInternals(modules: NestPrivateModules): string[] {
  return missingOf({
    '@nestjs/core/router/request/request-constants.js (REQUEST_CONTEXT_ID)':
      typeof modules.requestConstants?.REQUEST_CONTEXT_ID === 'symbol',
    '@nestjs/common/enums/route-paramtypes.enum.js (RouteParamtypes.BODY)':
      typeof modules.routeParamtypes?.RouteParamtypes?.BODY === 'number',
    '@nestjs/common/constants.js (GUARDS_METADATA, ROUTE_ARGS_METADATA, CUSTOM_ROUTE_ARGS_METADATA, EXCEPTION_FILTERS_METADATA)':
      [
        modules.commonConstants?.GUARDS_METADATA,
        modules.commonConstants?.ROUTE_ARGS_METADATA,
        modules.commonConstants?.CUSTOM_ROUTE_ARGS_METADATA,
        modules.commonConstants?.EXCEPTION_FILTERS_METADATA,
      ].every((key) => typeof key === 'string'),
    '@nestjs/core/guards/constants.js (FORBIDDEN_MESSAGE)':
      typeof modules.guardConstants?.FORBIDDEN_MESSAGE === 'string',
    '@nestjs/core/helpers/execution-context-host.js (ExecutionContextHost)':
      typeof modules.contextHost?.ExecutionContextHost === 'function',
  });
}

let checkedModules: Loaded | undefined;

/** Nest's private modules, checked once (throws, naming what is missing). */
function nestModules(): Loaded {
  if (!checkedModules) {
    const modules = loadNestPrivateModules();
    const missing = missingModuleInternals(modules);
    if (missing.length > 0) {
      throw new Error(
        missingInternalsMessage(installedNest(), PURPOSE, missing),
      );
    }
    checkedModules = modules as Loaded;
  }
  return checkedModules;
}

/**
 * The argument type of a request body as Nest's pipe consumer takes it (its
 * route-parameter enum, which it turns into `'body'` for the pipes).
 */
export function bodyArgument(): ArgumentMetadata['type'] {
  const { RouteParamtypes } = nestModules().routeParamtypes;
  return RouteParamtypes.BODY as unknown as ArgumentMetadata['type'];
}

/** The metadata key under which `@UseGuards()` keeps a class's or method's guards. */
export function guardsMetadataKey(): string {
  return nestModules().commonConstants.GUARDS_METADATA;
}

/** The text of the `ForbiddenException` Nest throws when a guard returns false. */
export function forbiddenMessage(): string {
  return nestModules().guardConstants.FORBIDDEN_MESSAGE;
}

/** One parameter decorator of a method, as Nest's route-argument metadata holds it. */
export interface RouteArgument {
  readonly index: number;
  /** A `createParamDecorator()` decorator's, or the name of Nest's route parameter type (`REQUEST`, `BODY`...). */
  readonly type: 'custom' | string;
  readonly data: unknown;
  readonly pipes: readonly unknown[];
}

/** The metadata key of parameter decorators (`@Body()`, `createParamDecorator()`). */
export function routeArgsMetadataKey(): string {
  return nestModules().commonConstants.ROUTE_ARGS_METADATA;
}

/** The parameter decorators of `type.prototype[methodName]`, in parameter order. */
export function routeArgumentsOf(
  type: Function,
  methodName: string,
): RouteArgument[] {
  const { commonConstants, routeParamtypes } = nestModules();
  const metadata = (Reflect.getMetadata(
    commonConstants.ROUTE_ARGS_METADATA,
    type,
    methodName,
  ) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: unknown[] }
  >;
  return Object.entries(metadata)
    .map(([key, { index, data, pipes }]) => ({
      index,
      type: key.includes(commonConstants.CUSTOM_ROUTE_ARGS_METADATA)
        ? 'custom'
        : String(
            (routeParamtypes.RouteParamtypes as Record<number, string>)[
              Number(key.split(':')[0])
            ] ?? key.split(':')[0],
          ),
      data,
      pipes: pipes ?? [],
    }))
    .sort((a, b) => a.index - b.index);
}

/** Whether `type` is Nest's route-parameter type of a body (`@Body()`), as a params factory gets it. */
export function isBodyParamtype(type: unknown): boolean {
  return type === nestModules().routeParamtypes.RouteParamtypes.BODY;
}

/** Whether `@UseFilters()` put exception filters on a class or method. */
export function hasFiltersMetadata(target: object): boolean {
  const filters: unknown = Reflect.getMetadata(
    nestModules().commonConstants.EXCEPTION_FILTERS_METADATA,
    target,
  );
  return Array.isArray(filters) && filters.length > 0;
}

/**
 * The app's exception filters that apply to one handler, as Nest selects
 * them for `ExternalContextCreator` (global ones, `APP_FILTER` included,
 * then the class's and the method's `@UseFilters()`; the nearest first):
 * a function that runs the one that catches an exception, undefined when
 * there is none.
 */
export type ExceptionFilters = (
  exception: unknown,
  host: ArgumentsHost,
) => unknown;

interface ExceptionsHandlerLike {
  readonly filters?: readonly unknown[];
  invokeCustomFilters(exception: unknown, host: ArgumentsHost): unknown;
}

/** How Nest's context creators build the enhancers of one handler. */
type HandlerEnhancers<T> = (
  instance: object,
  callback: (...args: unknown[]) => unknown,
  moduleKey: string,
  contextId?: ContextId,
  inquirerId?: string,
) => T;

interface FiltersContextLike {
  create: HandlerEnhancers<ExceptionsHandlerLike>;
}

export function exceptionFiltersOf(
  contextCreator: ExternalContextCreator,
  instance: object,
  callback: (...args: unknown[]) => unknown,
  moduleKey: string,
  contextId?: ContextId,
  inquirerId?: string,
): ExceptionFilters | undefined {
  const handler = filtersContextOf(contextCreator).create(
    instance,
    callback,
    moduleKey,
    contextId,
    inquirerId,
  );
  if (!handler.filters || handler.filters.length === 0) {
    return undefined;
  }
  return (exception, host) => handler.invokeCustomFilters(exception, host);
}

/**
 * An `ExternalContextCreator` of its own, on the same container, for the
 * resolvers of operations' decorated parameters: Nest 11 caches a handler's
 * metadata by class and method name alone, so a second `create()` of the
 * same method, with the route-arguments key, got the metadata of the first
 * (the call's handler, with no key: no parameter decorators). Nest 12 keys
 * that cache by the metadata key too. Without a container to build one
 * from, the same creator.
 */
export function separateContextCreator(
  contextCreator: ExternalContextCreator,
): ExternalContextCreator {
  const container = (contextCreator as unknown as { container?: unknown })
    .container;
  const type = contextCreator.constructor as Partial<
    Pick<typeof ExternalContextCreator, 'fromContainer'>
  >;
  return container !== undefined && typeof type.fromContainer === 'function'
    ? type.fromContainer(
        container as Parameters<typeof ExternalContextCreator.fromContainer>[0],
      )
    : contextCreator;
}

/** The `ArgumentsHost` of a call's `(request, response)`, as Nest gives exception filters. */
export function argumentsHostOf(args: unknown[]): ArgumentsHost {
  return new (nestModules().contextHost.ExecutionContextHost)(args);
}

function filtersContextOf(
  contextCreator: ExternalContextCreator,
): FiltersContextLike {
  return (
    contextCreator as unknown as { filtersContextCreator: FiltersContextLike }
  ).filtersContextCreator;
}

interface InjectorLike {
  loadInjectable(
    wrapper: InstanceWrapper,
    moduleRef: unknown,
    contextId: ContextId,
    inquirer: InstanceWrapper,
  ): Promise<void>;
}

/** Nest's pipe machinery, as `ExternalContextCreator` uses it. */
export interface NestPipes {
  /** The global, class and method pipes of a handler. */
  create: HandlerEnhancers<PipeTransform[]>;
  apply(
    value: unknown,
    metadata: ArgumentMetadata,
    pipes: PipeTransform[],
  ): Promise<unknown>;
}

/** The pipe machinery that Nest gave `ExternalContextCreator`. */
export function nestPipesOf(contextCreator: ExternalContextCreator): NestPipes {
  const { pipesContextCreator, pipesConsumer } =
    pipeInternalsOf(contextCreator);
  if (!pipesContextCreator || !pipesConsumer) {
    throw new Error('ExternalContextCreator has no pipe machinery.');
  }
  return {
    create: (...args) => pipesContextCreator.create(...args),
    apply: (...args) => pipesConsumer.apply(...args),
  };
}

/** The module key (`ModulesContainer` key) of a provider's host module. */
export function moduleKeyOf(wrapper: InstanceWrapper): string {
  const token = (wrapper.host as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') {
    throw new Error(`Provider ${String(wrapper.name)} has no host module.`);
  }
  return token;
}

/** The `ModuleRef` of the module that declares a provider. */
export function moduleRefOf(wrapper: InstanceWrapper): ModuleRef {
  const host = wrapper.host;
  if (!host) {
    throw new Error(`Provider ${String(wrapper.name)} has no host module.`);
  }
  return host.getProviderByKey(ModuleRef).instance as ModuleRef;
}

/**
 * The request-scoped and transient global enhancers (`APP_GUARD`,
 * `APP_INTERCEPTOR`, `APP_PIPE`), which Nest builds per request.
 */
export function scopedGlobalEnhancers(
  config: ApplicationConfig,
): readonly InstanceWrapper[] {
  return [
    ...config.getGlobalRequestGuards(),
    ...config.getGlobalRequestInterceptors(),
    ...config.getGlobalRequestPipes(),
    ...config.getGlobalRequestFilters(),
  ] as InstanceWrapper[];
}

/**
 * Builds the scoped global enhancers for one call, as Nest's router does for
 * a controller, with the operation's provider as their inquirer (a transient
 * enhancer gets its own instance per provider).
 */
export async function loadEnhancersForCall(
  enhancers: readonly InstanceWrapper[],
  contextId: ContextId,
  inquirer: InstanceWrapper,
): Promise<void> {
  if (enhancers.length === 0) {
    return;
  }
  const injector = injectorOf(moduleRefOf(inquirer));
  await Promise.all(
    enhancers.map((enhancer) =>
      injector.loadInjectable(enhancer, enhancer.host, contextId, inquirer),
    ),
  );
}

/**
 * Marks the per-call request with its context id, as Nest's router and
 * `@nestjs/graphql` do, so `ContextIdFactory.getByRequest(request)` inside
 * the call returns it.
 */
export function bindContextId(request: object, contextId: ContextId): void {
  Object.defineProperty(
    request,
    nestModules().requestConstants.REQUEST_CONTEXT_ID,
    {
      value: contextId,
      enumerable: false,
      writable: false,
      configurable: false,
    },
  );
}

function pipeInternalsOf(contextCreator: ExternalContextCreator): {
  readonly pipesContextCreator?: Pick<NestPipes, 'create'>;
  readonly pipesConsumer?: Pick<NestPipes, 'apply'>;
} {
  return contextCreator as never;
}

function exceptionsHandlerPrototype():
  Partial<ExceptionsHandlerLike> | undefined {
  return loadPrivateModule(
    () =>
      (
        require('@nestjs/core/exceptions/external-exceptions-handler.js') as {
          ExternalExceptionsHandler: { prototype: ExceptionsHandlerLike };
        }
      ).ExternalExceptionsHandler.prototype,
  );
}

function injectorOf(moduleRef: ModuleRef): InjectorLike {
  return (moduleRef as unknown as { injector: InjectorLike }).injector;
}

/**
 * Throws, naming the installed Nest and each internal that is missing, when
 * one this library relies on is not where it expects it. `modules` and
 * `nest` are the installed ones unless given (as tests give other shapes).
 */
export function assertNestInternals(
  contextCreator: ExternalContextCreator,
  moduleRef: ModuleRef,
  config: ApplicationConfig,
  modules: NestPrivateModules = loadNestPrivateModules(),
  nest: () => string = installedNest,
): void {
  const { pipesContextCreator, pipesConsumer } =
    pipeInternalsOf(contextCreator);
  const missing = [
    ...missingModuleInternals(modules),
    ...missingOf({
      'ExternalContextCreator.pipesContextCreator':
        typeof pipesContextCreator?.create === 'function',
      'ExternalContextCreator.pipesConsumer':
        typeof pipesConsumer?.apply === 'function',
      'ExternalContextCreator.filtersContextCreator (ExternalExceptionsHandler.invokeCustomFilters)':
        typeof filtersContextOf(contextCreator)?.create === 'function' &&
        typeof exceptionsHandlerPrototype()?.invokeCustomFilters === 'function',
      'ModuleRef.injector.loadInjectable':
        typeof injectorOf(moduleRef)?.loadInjectable === 'function',
    }),
    ...missingMethods('ApplicationConfig', config, [
      'getGlobalRequestGuards',
      'getGlobalRequestInterceptors',
      'getGlobalRequestPipes',
      'getGlobalRequestFilters',
    ]),
  ];
  if (missing.length > 0) {
    throw new Error(missingInternalsMessage(nest(), PURPOSE, missing));
  }
}
