/**
 * The one place that touches Nest internals (they move between majors).
 */
import { ModuleRef, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';

export type { InstanceWrapper };
export type { ParamsFactory } from '@nestjs/core/helpers/external-context-creator.js';

/** The `ModuleRef` of the module that declares a provider. */
export function moduleRefOf(wrapper: InstanceWrapper): ModuleRef {
  const host = wrapper.host;
  if (!host) {
    throw new Error(`Provider ${String(wrapper.name)} has no host module.`);
  }
  return host.getProviderByKey(ModuleRef).instance as ModuleRef;
}
export { GUARDS_METADATA } from '@nestjs/common/constants.js';
export { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';

const SCOPED_GLOBAL_ENHANCER = /^APP_(GUARD|INTERCEPTOR|PIPE) \(UUID: /;

/**
 * The request-scoped and transient global enhancers (`APP_GUARD`,
 * `APP_INTERCEPTOR`, `APP_PIPE`). Nest keeps them as injectables of the
 * declaring module under a `<TOKEN> (UUID: ...)` key.
 */
export function scopedGlobalEnhancers(
  modules: ModulesContainer,
): InstanceWrapper[] {
  const found: InstanceWrapper[] = [];
  for (const module of modules.values()) {
    for (const [token, wrapper] of module.injectables) {
      if (typeof token === 'string' && SCOPED_GLOBAL_ENHANCER.test(token)) {
        found.push(wrapper);
      }
    }
  }
  return found;
}

/**
 * Makes a provider depend on the scoped global enhancers, as Nest does for
 * controllers, so it is resolved per call and they are built for each call.
 * Nest before 11.1.24 keeps the scope it computed before they were added, so
 * it is forgotten here as later versions do in `addEnhancerMetadata`.
 */
export function attachEnhancers(
  wrapper: InstanceWrapper,
  enhancers: InstanceWrapper[],
): void {
  enhancers.forEach((enhancer) => wrapper.addEnhancerMetadata(enhancer));
  if (enhancers.length > 0) {
    Object.assign(wrapper, {
      isTreeStatic: undefined,
      isTreeDurable: undefined,
    });
  }
}
