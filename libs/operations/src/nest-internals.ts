/**
 * The one place that touches Nest internals (they move between majors).
 */
import { ModuleRef } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/internal';

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
export { RouteParamtypes } from '@nestjs/common/internal';
