/**
 * The one place that touches Nest internals (they move between majors).
 * `assertNestInternals()` checks at startup that each one is still there, so
 * a Nest release that moves one stops the app with a clear message instead
 * of silently skipping part of the pipeline.
 */
import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import {
  ApplicationConfig,
  type ContextId,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { REQUEST_CONTEXT_ID } from '@nestjs/core/router/request/request-constants.js';

export type { InstanceWrapper };
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
export { GUARDS_METADATA } from '@nestjs/common/constants.js';

/**
 * The argument type of a request body as Nest's pipe consumer takes it (its
 * route-parameter enum, which it turns into `'body'` for the pipes).
 */
export const BODY_ARGUMENT =
  RouteParamtypes.BODY as unknown as ArgumentMetadata['type'];

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
  create(
    instance: object,
    callback: (...args: unknown[]) => unknown,
    moduleKey: string,
    contextId?: ContextId,
    inquirerId?: string,
  ): PipeTransform[];
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
  Object.defineProperty(request, REQUEST_CONTEXT_ID, {
    value: contextId,
    enumerable: false,
    writable: false,
    configurable: false,
  });
}

function pipeInternalsOf(contextCreator: ExternalContextCreator): {
  readonly pipesContextCreator?: Pick<NestPipes, 'create'>;
  readonly pipesConsumer?: Pick<NestPipes, 'apply'>;
} {
  return contextCreator as never;
}

function injectorOf(moduleRef: ModuleRef): InjectorLike {
  return (moduleRef as unknown as { injector: InjectorLike }).injector;
}

/**
 * Throws, naming what is missing, when a Nest internal this library relies on
 * is not where it expects it.
 */
export function assertNestInternals(
  contextCreator: ExternalContextCreator,
  moduleRef: ModuleRef,
  config: ApplicationConfig,
): void {
  const { pipesContextCreator, pipesConsumer } =
    pipeInternalsOf(contextCreator);
  const missing = [
    typeof REQUEST_CONTEXT_ID !== 'symbol' && 'REQUEST_CONTEXT_ID',
    typeof RouteParamtypes?.BODY !== 'number' && 'RouteParamtypes.BODY',
    typeof pipesContextCreator?.create !== 'function' &&
      'ExternalContextCreator.pipesContextCreator',
    typeof pipesConsumer?.apply !== 'function' &&
      'ExternalContextCreator.pipesConsumer',
    typeof injectorOf(moduleRef)?.loadInjectable !== 'function' &&
      'ModuleRef.injector.loadInjectable',
    typeof config.getGlobalRequestGuards !== 'function' &&
      'ApplicationConfig.getGlobalRequestGuards',
  ].filter((name): name is string => typeof name === 'string');
  if (missing.length > 0) {
    throw new Error(
      `This version of @nestjs/core lacks what @nestops/operations needs to run operations through Nest's pipeline: ${missing.join(', ')}.`,
    );
  }
}
