/* eslint-disable @typescript-eslint/no-require-imports -- the installed version is read from @nestjs/core's package.json for the warnings */
/**
 * The one place of this library that touches Nest internals: the two
 * moments of the application's lifecycle that the HTTP transport must know
 * and that no public hook marks on every supported Nest.
 *
 * - The end of the whole bootstrap. Nest runs `onApplicationBootstrap`
 *   module by module, deepest first, the root module last, and a module's
 *   own class after its providers; McpModule's own hooks run before the
 *   root module's. `HttpAdapterHost.listen$` fires only for `app.listen()`
 *   (not for a server listened to otherwise, or for `app.init()`), and
 *   `init$` when the adapter is set, long before. So the root module
 *   class's instance gets the hook (chained after its own).
 * - The start of shutdown. Nest 12 calls the HTTP adapter's public
 *   `beforeClose()` before any shutdown hook, so the adapter's own method is
 *   chained. Nest 11 has no such call: it runs `onModuleDestroy` root module
 *   first (McpModule's own hooks come later), starting all of a module's
 *   providers' hooks in one turn, so the root module's `ModuleRef` gets a
 *   hook (chained before its own).
 *
 * Each function returns undefined once arranged, else what the installed
 * Nest lacks, for the caller's warning: the caller then falls back to
 * McpModule's own lifecycle hooks.
 */
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { Module } from '@nestjs/core/injector/module.js';

/** The installed `@nestjs/core`'s version, or undefined when it cannot be read. */
export function installedNestCore(): string | undefined {
  try {
    const { version } = require('@nestjs/core/package.json') as {
      version?: unknown;
    };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The root module: the one nearest to the root (Nest's `Module.distance`). */
function rootModuleOf(modules: ModulesContainer): Module | undefined {
  return [...modules.values()].reduce<Module | undefined>(
    (closest, module) =>
      typeof module.distance === 'number' &&
      (!closest || module.distance < closest.distance)
        ? module
        : closest,
    undefined,
  );
}

/**
 * Calls `listener` once the whole application has bootstrapped: right
 * after the root module class's own `onApplicationBootstrap` (which it
 * adds when the class has none).
 */
export function callAfterBootstrap(
  modules: ModulesContainer,
  listener: () => void,
): string | undefined {
  const root = rootModuleOf(modules);
  if (typeof root?.getProviderByKey !== 'function') {
    return 'no root module in ModulesContainer (Module.distance, Module.getProviderByKey)';
  }
  const host = root.getProviderByKey(root.metatype);
  const instance = host?.instance as
    Partial<OnApplicationBootstrap> | undefined;
  const name = root.metatype?.name ?? 'the root module';
  if (!instance) {
    return `no instance of ${name} (the provider of its own class)`;
  }
  if (typeof host.isDependencyTreeStatic !== 'function') {
    return `no InstanceWrapper.isDependencyTreeStatic on ${name}`;
  }
  if (!host.isDependencyTreeStatic()) {
    return `${name} depends on request-scoped providers, so Nest runs none of its own hooks`;
  }
  const own = instance.onApplicationBootstrap;
  instance.onApplicationBootstrap = async function (this: unknown) {
    await own?.call(this);
    listener();
  };
  return undefined;
}

/** `major` of a `major.minor.patch` version, or undefined. */
function majorOf(version: string | undefined): number | undefined {
  const major = Number.parseInt(version ?? '', 10);
  return Number.isNaN(major) ? undefined : major;
}

/**
 * Calls `listener` when the application begins to shut down, before any
 * other module's `onModuleDestroy` hook can close what a request under way
 * uses: on Nest 12 from the HTTP adapter's `beforeClose()`, on Nest 11
 * from the root module's `ModuleRef` (see the file's comment). The
 * shutdown waits for the promise it returns.
 */
export function callOnShutdown(
  modules: ModulesContainer,
  adapterHost: HttpAdapterHost,
  listener: () => Promise<void> | void,
  version = installedNestCore(),
): string | undefined {
  const major = majorOf(version);
  if (major === undefined || major >= 12) {
    const adapter = adapterHost.httpAdapter as
      { beforeClose?: (...args: unknown[]) => unknown } | undefined;
    const own = adapter?.beforeClose;
    if (!adapter || typeof own !== 'function') {
      return 'no beforeClose() on the HTTP adapter (AbstractHttpAdapter.beforeClose)';
    }
    adapter.beforeClose = async function (this: unknown, ...args: unknown[]) {
      await listener();
      return own.apply(this, args);
    };
    return undefined;
  }
  const root = rootModuleOf(modules);
  const moduleRef = (
    typeof root?.getProviderByKey === 'function'
      ? root.getProviderByKey<ModuleRef>(ModuleRef)?.instance
      : undefined
  ) as (ModuleRef & Partial<OnModuleDestroy>) | undefined;
  if (!moduleRef) {
    return 'no ModuleRef provider in the root module (Module.distance, Module.getProviderByKey)';
  }
  const own = moduleRef.onModuleDestroy;
  moduleRef.onModuleDestroy = async function (this: unknown) {
    await listener();
    await own?.call(this);
  };
  return undefined;
}
