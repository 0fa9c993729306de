/**
 * The one place of this library that touches Nest internals.
 */
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { AbstractHttpAdapter, ModulesContainer } from '@nestjs/core';

import type { Module } from '@nestjs/core/injector/module.js';

export { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';

/** Adapters whose application has begun shutting down (see `markShutdown`). */
const shuttingDown = new WeakSet<AbstractHttpAdapter>();

/**
 * Calls `listener` once the whole application has bootstrapped. Nest runs
 * `onApplicationBootstrap` module by module, the root module's own class
 * last, so the listener runs right after that hook (which it adds when the
 * root module has none). Returns false when it cannot be arranged. Also
 * arranges `isShuttingDown` for Nest 11 (`markShutdown`).
 */
export function afterApplicationBootstrap(
  modules: ModulesContainer,
  listener: () => void,
): boolean {
  const root = [...modules.values()].reduce<Module | undefined>(
    (closest, module) =>
      !closest || module.distance < closest.distance ? module : closest,
    undefined,
  );
  if (root) {
    markShutdown(modules, root);
  }
  const host = root?.getProviderByKey(root.metatype);
  const instance = host?.instance as
    Partial<OnApplicationBootstrap> | undefined;
  if (!instance || !host?.isDependencyTreeStatic()) {
    return false;
  }
  const own = instance.onApplicationBootstrap;
  instance.onApplicationBootstrap = async function (this: unknown) {
    await own?.call(this);
    listener();
  };
  return true;
}

/**
 * Nest 12's Express adapter flags itself in `beforeClose`, before any
 * shutdown hook. Nest 11 has no such flag and runs `onModuleDestroy` root
 * module first, starting all of a module's providers' hooks at once: so the
 * root module's `ModuleRef` gets a hook that notes the adapter.
 */
function markShutdown(modules: ModulesContainer, root: Module): void {
  const moduleRef = root.getProviderByKey<ModuleRef>(ModuleRef)?.instance as
    (ModuleRef & Partial<OnModuleDestroy>) | undefined;
  const adapterHost = [...modules.values()]
    .find((module) => module.providers.has(HttpAdapterHost))
    ?.getProviderByKey<HttpAdapterHost>(HttpAdapterHost)?.instance;
  if (!moduleRef || !adapterHost) {
    return;
  }
  const own = moduleRef.onModuleDestroy;
  moduleRef.onModuleDestroy = async function (this: unknown) {
    if (adapterHost.httpAdapter) {
      shuttingDown.add(adapterHost.httpAdapter);
    }
    await own?.call(this);
  };
}

/** Whether the application behind the HTTP adapter has begun shutting down. */
export function isShuttingDown(
  adapter: AbstractHttpAdapter | undefined,
): boolean {
  return (
    adapter !== undefined &&
    ((adapter as { isShuttingDown?: boolean }).isShuttingDown === true ||
      shuttingDown.has(adapter))
  );
}
