import { ModuleRef } from '@nestjs/core';
import type { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { createRequire } from 'node:module';
import {
  callAfterBootstrap,
  callOnShutdown,
  installedNestCore,
} from './nest-lifecycle.adapter.js';

/** A module of Nest's container, as the adapter reads it. */
interface FakeModule {
  readonly distance: number;
  readonly metatype: Function;
  getProviderByKey(key: unknown): unknown;
}

function container(...modules: FakeModule[]): ModulesContainer {
  return new Map(
    modules.map((module, index) => [String(index), module]),
  ) as unknown as ModulesContainer;
}

function moduleOf(
  distance: number,
  providers: Map<unknown, unknown>,
  metatype: Function = class RootModule {},
): FakeModule {
  return {
    distance,
    metatype,
    getProviderByKey: (key) => providers.get(key),
  };
}

function wrapperOf(instance: unknown, isStatic = true) {
  return { instance, isDependencyTreeStatic: () => isStatic };
}

describe('callAfterBootstrap', () => {
  it("calls back after the root module class's own onApplicationBootstrap, and not before", async () => {
    class AppModule {}
    const calls: string[] = [];
    const instance = {
      async onApplicationBootstrap() {
        calls.push('own');
      },
    };
    const deeper = {};
    const modules = container(
      moduleOf(Number.MAX_VALUE, new Map()),
      moduleOf(2, new Map([[Object, wrapperOf(deeper)]]), Object),
      moduleOf(1, new Map([[AppModule, wrapperOf(instance)]]), AppModule),
    );

    expect(callAfterBootstrap(modules, () => calls.push('listener'))).toBe(
      undefined,
    );
    expect(calls).toEqual([]);
    await instance.onApplicationBootstrap();
    expect(calls).toEqual(['own', 'listener']);
    expect(deeper).toEqual({});
  });

  it('adds the hook to a root module class that has none', async () => {
    class AppModule {}
    const instance: { onApplicationBootstrap?: () => Promise<void> } = {};
    let called = 0;

    expect(
      callAfterBootstrap(
        container(
          moduleOf(1, new Map([[AppModule, wrapperOf(instance)]]), AppModule),
        ),
        () => (called += 1),
      ),
    ).toBe(undefined);
    await instance.onApplicationBootstrap?.();
    expect(called).toBe(1);
  });

  it.each<[string, ModulesContainer, string]>([
    [
      'no module',
      container(),
      'no root module in ModulesContainer (Module.distance, Module.getProviderByKey)',
    ],
    [
      'modules without a distance',
      new Map([['a', { metatype: Object }]]) as unknown as ModulesContainer,
      'no root module in ModulesContainer (Module.distance, Module.getProviderByKey)',
    ],
    [
      'no instance of the root module class',
      container(moduleOf(1, new Map(), class AppModule {})),
      'no instance of AppModule (the provider of its own class)',
    ],
  ])('says what is missing: %s', (_case, modules, missing) => {
    let called = false;

    expect(callAfterBootstrap(modules, () => (called = true))).toBe(missing);
    expect(called).toBe(false);
  });

  it('says so for a root module class that Nest runs no hook of', () => {
    class AppModule {}
    const instance = {};

    expect(
      callAfterBootstrap(
        container(
          moduleOf(
            1,
            new Map([[AppModule, wrapperOf(instance, false)]]),
            AppModule,
          ),
        ),
        () => undefined,
      ),
    ).toBe(
      'AppModule depends on request-scoped providers, so Nest runs none of its own hooks',
    );
    expect(instance).toEqual({});
  });
});

describe('callOnShutdown', () => {
  const hostOf = (httpAdapter: unknown) =>
    ({ httpAdapter }) as unknown as HttpAdapterHost;

  // 'unreadable': a version whose major cannot be read (an explicit
  // `undefined` would take the installed one, the parameter's default).
  it.each(['12.0.0', '12.5.1', '13.0.0', 'unreadable'])(
    "on @nestjs/core %s: calls back from the HTTP adapter's beforeClose(), before the adapter's own",
    async (version) => {
      const calls: string[] = [];
      const adapter = {
        beforeClose(this: unknown) {
          calls.push(this === adapter ? 'own' : 'own, unbound');
          return 'done';
        },
      };

      expect(
        callOnShutdown(
          container(),
          hostOf(adapter),
          () => void calls.push('listener'),
          version,
        ),
      ).toBe(undefined);
      expect(calls).toEqual([]);
      await expect(adapter.beforeClose()).resolves.toBe('done');
      expect(calls).toEqual(['listener', 'own']);
    },
  );

  it.each(['12.5.1', '11.2.10'])(
    'on @nestjs/core %s: the shutdown waits for the promise the listener returns',
    async (version) => {
      const calls: string[] = [];
      const rootRef = {
        async onModuleDestroy() {
          calls.push('own');
        },
      };
      const adapter = {
        beforeClose() {
          calls.push('own');
        },
      };
      let release = () => undefined as void;
      const listener = () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }).then(() => {
          calls.push('listener done');
        });
      callOnShutdown(
        container(moduleOf(1, new Map([[ModuleRef, wrapperOf(rootRef)]]))),
        hostOf(adapter),
        listener,
        version,
      );
      const closing = version.startsWith('12')
        ? adapter.beforeClose()
        : rootRef.onModuleDestroy();
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual([]);
      release();
      await closing;
      expect(calls).toEqual(['listener done', 'own']);
    },
  );

  it('on Nest 12: says what is missing when the adapter has no beforeClose()', () => {
    expect(
      callOnShutdown(container(), hostOf({}), () => undefined, '12.5.1'),
    ).toBe(
      'no beforeClose() on the HTTP adapter (AbstractHttpAdapter.beforeClose)',
    );
    expect(
      callOnShutdown(container(), hostOf(undefined), () => undefined, '12.5.1'),
    ).toBe(
      'no beforeClose() on the HTTP adapter (AbstractHttpAdapter.beforeClose)',
    );
  });

  it.each(['11.1.4', '11.2.10'])(
    "on @nestjs/core %s: calls back from the root module's ModuleRef.onModuleDestroy, before its own",
    async (version) => {
      const calls: string[] = [];
      const rootRef = {
        async onModuleDestroy() {
          calls.push('own');
        },
      };
      const deeperRef = {};
      const adapter = { beforeClose: () => calls.push('adapter') };
      const modules = container(
        moduleOf(Number.MAX_VALUE, new Map([[ModuleRef, wrapperOf({})]])),
        moduleOf(3, new Map([[ModuleRef, wrapperOf(deeperRef)]])),
        moduleOf(1, new Map([[ModuleRef, wrapperOf(rootRef)]])),
      );

      expect(
        callOnShutdown(
          modules,
          hostOf(adapter),
          () => void calls.push('listener'),
          version,
        ),
      ).toBe(undefined);
      expect(calls).toEqual([]);
      await rootRef.onModuleDestroy();
      expect(calls).toEqual(['listener', 'own']);
      expect(deeperRef).toEqual({});
    },
  );

  it('on Nest 11: says what is missing when the root module has no ModuleRef', () => {
    expect(
      callOnShutdown(
        container(moduleOf(1, new Map())),
        hostOf({}),
        () => undefined,
        '11.2.10',
      ),
    ).toBe(
      'no ModuleRef provider in the root module (Module.distance, Module.getProviderByKey)',
    );
  });
});

describe('installedNestCore', () => {
  it("is the installed @nestjs/core's version", () => {
    expect(installedNestCore()).toBe(
      (
        createRequire(__filename)('@nestjs/core/package.json') as {
          version: string;
        }
      ).version,
    );
  });
});
