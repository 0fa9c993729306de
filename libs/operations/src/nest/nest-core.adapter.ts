/* eslint-disable @typescript-eslint/no-require-imports -- Nest's private modules are loaded on first use, so that a release without one fails the assertion with its name */
/**
 * Nest internals, first part: the private modules of `@nestjs/core` and
 * `@nestjs/common` the library reads (they move between majors; Nest 12's
 * `@nestjs/*\/internal` entries are for Nest's own packages, and Nest 11
 * lacks them). `assertNestInternals()` checks at bootstrap that each is
 * still there, naming it and the installed Nest, instead of skipping part
 * of the pipeline. See `nest-context.adapter.ts` for private members.
 */
// The type of `DiscoveryService`'s providers, not exported from the
// package's index: nestjs/nest#2292 asks for it (closed).
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
}

interface Loaded {
  readonly requestConstants: RequestConstants;
  readonly routeParamtypes: RouteParamtypesModule;
  readonly commonConstants: CommonConstants;
  readonly guardConstants: GuardConstants;
}

/** Nest's private modules, each undefined where the installed release lacks it. */
export function loadNestPrivateModules(): NestPrivateModules {
  return {
    // No public way to mark a request with its context id, so that
    // `ContextIdFactory.getByRequest()` finds it: nestjs/nest#3105 (closed).
    requestConstants: loadPrivateModule(
      () =>
        require('@nestjs/core/router/request/request-constants.js') as RequestConstants,
    ),
    // The keys `@Body()` and the other route-parameter decorators write
    // (the enum is not exported): no upstream issue found.
    routeParamtypes: loadPrivateModule(
      () =>
        require('@nestjs/common/enums/route-paramtypes.enum.js') as RouteParamtypesModule,
    ),
    // No public reader of `@UseGuards()`, `@UseFilters()` or parameter
    // decorators' metadata: nestjs/nest#4232 asks for the keys (closed).
    commonConstants: loadPrivateModule(
      () => require('@nestjs/common/constants.js') as CommonConstants,
    ),
    // The text of a guard's refusal is no public constant: no upstream issue
    // found (nestjs/nest#4552 notes it differs from `ForbiddenException`'s).
    guardConstants: loadPrivateModule(
      () => require('@nestjs/core/guards/constants.js') as GuardConstants,
    ),
  };
}

/** The installed Nest, as the messages name it. */
export function installedNest(): string {
  return `@nestjs/core ${installedVersion(() => require('@nestjs/core/package.json'))} (@nestjs/common ${installedVersion(() => require('@nestjs/common/package.json'))})`;
}

/** What the library needs Nest's internals for, as the messages say it. */
export const PURPOSE = "run operations through Nest's pipeline";

/** The private modules (and their members) that `modules` lacks, by name. */
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
