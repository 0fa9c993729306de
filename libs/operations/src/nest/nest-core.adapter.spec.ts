import { Module } from '@nestjs/common';
import {
  ApplicationConfig,
  ExternalContextCreator,
  ModuleRef,
  NestFactory,
} from '@nestjs/core';
import { createRequire } from 'node:module';
import {
  installedNest,
  loadNestPrivateModules,
  type NestPrivateModules,
} from './nest-core.adapter.js';
import { assertNestInternals } from './nest-context.adapter.js';

const NEST = () => '@nestjs/core 99.0.0 (@nestjs/common 99.0.0)';

const contextCreator = {
  pipesContextCreator: { create: () => [] },
  filtersContextCreator: {
    create: () => ({ filters: [], invokeCustomFilters: () => undefined }),
  },
} as unknown as ExternalContextCreator;
const moduleRef = {
  injector: { loadInjectable: () => Promise.resolve() },
} as unknown as ModuleRef;
const config = {
  getGlobalRequestGuards: () => [],
  getGlobalRequestInterceptors: () => [],
  getGlobalRequestPipes: () => [],
  getGlobalRequestFilters: () => [],
} as unknown as ApplicationConfig;

describe('assertNestInternals', () => {
  it('names the installed Nest and every Nest internal that is missing, instead of skipping part of the pipeline', () => {
    expect(() =>
      assertNestInternals(
        {} as ExternalContextCreator,
        {} as ModuleRef,
        {} as ApplicationConfig,
        {},
        NEST,
      ),
    ).toThrow(
      "@nestjs/core 99.0.0 (@nestjs/common 99.0.0) lacks what @nestops/operations needs to run operations through Nest's pipeline: " +
        '@nestjs/core/router/request/request-constants.js (REQUEST_CONTEXT_ID), ' +
        '@nestjs/common/enums/route-paramtypes.enum.js (RouteParamtypes.BODY), ' +
        '@nestjs/common/constants.js (GUARDS_METADATA, ROUTE_ARGS_METADATA, CUSTOM_ROUTE_ARGS_METADATA, EXCEPTION_FILTERS_METADATA), ' +
        '@nestjs/core/guards/constants.js (FORBIDDEN_MESSAGE), ' +
        'ExternalContextCreator.pipesContextCreator, ' +
        'ExternalContextCreator.filtersContextCreator (ExternalExceptionsHandler.invokeCustomFilters), ' +
        'ModuleRef.injector.loadInjectable, ApplicationConfig.getGlobalRequestGuards, ' +
        'ApplicationConfig.getGlobalRequestInterceptors, ApplicationConfig.getGlobalRequestPipes, ' +
        'ApplicationConfig.getGlobalRequestFilters. ',
    );
  });

  it.each<[string, NestPrivateModules]>([
    [
      '@nestjs/core/router/request/request-constants.js (REQUEST_CONTEXT_ID)',
      { ...loadNestPrivateModules(), requestConstants: {} },
    ],
    [
      '@nestjs/common/enums/route-paramtypes.enum.js (RouteParamtypes.BODY)',
      { ...loadNestPrivateModules(), routeParamtypes: undefined },
    ],
    [
      '@nestjs/common/constants.js (GUARDS_METADATA, ROUTE_ARGS_METADATA, CUSTOM_ROUTE_ARGS_METADATA, EXCEPTION_FILTERS_METADATA)',
      { ...loadNestPrivateModules(), commonConstants: {} },
    ],
    [
      '@nestjs/core/guards/constants.js (FORBIDDEN_MESSAGE)',
      { ...loadNestPrivateModules(), guardConstants: undefined },
    ],
  ])('names the private module that moved: %s', (name, modules) => {
    expect(() =>
      assertNestInternals(contextCreator, moduleRef, config, modules, NEST),
    ).toThrow(
      `@nestjs/core 99.0.0 (@nestjs/common 99.0.0) lacks what @nestops/operations needs to run operations through Nest's pipeline: ${name}. `,
    );
  });

  it.each([
    ['gives a handler that runs no filters', () => ({})],
    [
      'throws',
      () => {
        throw new Error('moved');
      },
    ],
  ])("names Nest's filters context creator when it %s", (_case, create) => {
    const moved = {
      ...contextCreator,
      filtersContextCreator: { create },
    } as unknown as ExternalContextCreator;

    expect(() =>
      assertNestInternals(moved, moduleRef, config, undefined, NEST),
    ).toThrow(
      "needs to run operations through Nest's pipeline: ExternalContextCreator.filtersContextCreator (ExternalExceptionsHandler.invokeCustomFilters). ",
    );
  });

  it('accepts objects that have them', () => {
    expect(() =>
      assertNestInternals(contextCreator, moduleRef, config),
    ).not.toThrow();
  });

  it("accepts the installed Nest's own objects, and names its version", async () => {
    @Module({})
    class EmptyModule {}
    const app = await NestFactory.createApplicationContext(EmptyModule, {
      logger: false,
    });
    try {
      expect(() =>
        assertNestInternals(
          app.get(ExternalContextCreator),
          app.get(ModuleRef),
          app.get(ApplicationConfig),
        ),
      ).not.toThrow();
    } finally {
      await app.close();
    }
    const versionOf = (name: string): string =>
      (createRequire(__filename)(`${name}/package.json`) as { version: string })
        .version;
    expect(installedNest()).toBe(
      `@nestjs/core ${versionOf('@nestjs/core')} (@nestjs/common ${versionOf('@nestjs/common')})`,
    );
  });
});
