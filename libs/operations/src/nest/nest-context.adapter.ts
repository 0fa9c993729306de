/**
 * Nest internals, second part: private members of Nest's context creators
 * and injector, read by cast, and the check at bootstrap that every
 * internal the library reads is still there (see `nest-core.adapter.ts`
 * for the private modules).
 */
import type { ArgumentsHost, PipeTransform } from '@nestjs/common';
import type {
  ApplicationConfig,
  ContextId,
  ExternalContextCreator,
} from '@nestjs/core';
import { ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { missingInternalsMessage } from './internals.messages.js';
import { missingMethods, missingOf } from './private-module.js';
import {
  installedNest,
  loadNestPrivateModules,
  missingModuleInternals,
  type NestPrivateModules,
  nestModules,
  PURPOSE,
} from './nest-core.adapter.js';

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

/** The exception filters of one handler, as Nest's `filtersContextCreator` selects them. */
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
  // Its container is private, and `fromContainer()` (public) needs one: no
  // upstream issue found.
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

// No public way to have the filters of a handler without a transport's own
// exceptions handler: no upstream issue found (nestjs/nest#11104 made the
// creator public, not its parts).
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

/** The global, class and method pipes of a handler, as Nest selects them. */
export type NestPipes = HandlerEnhancers<PipeTransform[]>;

/** The pipe selection that Nest gave `ExternalContextCreator`. */
export function nestPipesOf(contextCreator: ExternalContextCreator): NestPipes {
  const create = pipesContextOf(contextCreator)?.create;
  if (typeof create !== 'function') {
    throw new Error('ExternalContextCreator has no pipe machinery.');
  }
  return create.bind(pipesContextOf(contextCreator));
}

// A provider's host `Module` (its token, its providers) is no exported
// class: nestjs/nest#2292 asks for it (closed).

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

// No public way to have a handler's pipes without applying them to its
// parameter decorators' values: no upstream issue found.
function pipesContextOf(
  contextCreator: ExternalContextCreator,
): { create?: NestPipes } | undefined {
  return (contextCreator as unknown as { pipesContextCreator?: never })
    .pipesContextCreator;
}

/**
 * Whether Nest's filters context creator gives each handler an exceptions
 * handler that runs the filter catching an exception (tried on a probe).
 */
function runsHandlerFilters(contextCreator: ExternalContextCreator): boolean {
  const filters = filtersContextOf(contextCreator);
  if (typeof filters?.create !== 'function') {
    return false;
  }
  try {
    const handler = filters.create({}, () => undefined, '');
    return typeof handler?.invokeCustomFilters === 'function';
  } catch {
    return false;
  }
}

// No public way to build the request-scoped global enhancers of a call, as
// Nest's router does: no upstream issue found.
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
  const missing = [
    ...missingModuleInternals(modules),
    ...missingOf({
      'ExternalContextCreator.pipesContextCreator':
        typeof pipesContextOf(contextCreator)?.create === 'function',
      'ExternalContextCreator.filtersContextCreator (ExternalExceptionsHandler.invokeCustomFilters)':
        runsHandlerFilters(contextCreator),
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
