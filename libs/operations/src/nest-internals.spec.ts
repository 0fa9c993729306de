import type {
  ApplicationConfig,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import { assertNestInternals } from './nest-internals.js';

describe('assertNestInternals', () => {
  it('names every Nest internal that is missing, instead of skipping part of the pipeline', () => {
    expect(() =>
      assertNestInternals(
        {} as ExternalContextCreator,
        {} as ModuleRef,
        {} as ApplicationConfig,
      ),
    ).toThrow(
      "This version of @nestjs/core lacks what @nestops/operations needs to run operations through Nest's pipeline: ExternalContextCreator.pipesContextCreator, ExternalContextCreator.pipesConsumer, ModuleRef.injector.loadInjectable, ApplicationConfig.getGlobalRequestGuards.",
    );
  });

  it('accepts objects that have them', () => {
    const contextCreator = {
      pipesContextCreator: { create: () => [] },
      pipesConsumer: { apply: () => Promise.resolve() },
    } as unknown as ExternalContextCreator;
    const moduleRef = {
      injector: { loadInjectable: () => Promise.resolve() },
    } as unknown as ModuleRef;
    const config = {
      getGlobalRequestGuards: () => [],
    } as unknown as ApplicationConfig;

    expect(() =>
      assertNestInternals(contextCreator, moduleRef, config),
    ).not.toThrow();
  });
});
