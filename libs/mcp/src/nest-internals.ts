/**
 * The one place of this library that touches Nest internals.
 */
import type { OnApplicationBootstrap } from '@nestjs/common';
import type { AbstractHttpAdapter, ModulesContainer } from '@nestjs/core';

import type { Module } from '@nestjs/core/injector/module.js';

export { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';

/**
 * Calls `listener` once the whole application has bootstrapped. Nest runs
 * `onApplicationBootstrap` module by module, the root module's own class
 * last, so the listener runs right after that hook (which it adds when the
 * root module has none). Returns false when it cannot be arranged.
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

/** Whether the HTTP adapter has begun shutting down (Express marks it in `beforeClose`). */
export function isShuttingDown(
  adapter: AbstractHttpAdapter | undefined,
): boolean {
  return (
    (adapter as { isShuttingDown?: boolean } | undefined)?.isShuttingDown ===
    true
  );
}
