/* eslint-disable @typescript-eslint/no-require-imports -- Nest's private modules are loaded on first use, so that a release without one fails the assertion with its name */
/**
 * The one place that touches Nest internals (they move between majors):
 * private modules of `@nestjs/core` and `@nestjs/common`, and private
 * members of Nest's classes. `assertNestInternals()` checks at bootstrap
 * that each one is still there, so a Nest release that moves one stops the
 * app with a message naming it and the installed version, instead of
 * silently skipping part of the pipeline.
 */
import type { ArgumentMetadata } from '@nestjs/common';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { missingInternalsMessage } from './internals.messages.js';
import {
  installedVersion,
  loadPrivateModule,
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

export const PURPOSE = "run operations through Nest's pipeline";

export function missingModuleInternals(modules: NestPrivateModules): string[] {
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
export function nestModules(): Loaded {
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
