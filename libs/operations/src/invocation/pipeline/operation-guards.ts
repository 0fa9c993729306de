import type { CanActivate } from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
import { guardsMetadataKey } from '../../nest/nest-core.adapter.js';
import type { OperationHost } from '../../operation.registry.js';

type GuardEntry = CanActivate | Function;

/**
 * The classes of the app's guards that run on an operation's calls, in
 * Nest's order: global ones (`APP_GUARD`, `app.useGlobalGuards()`), then
 * the provider's class's and the method's `@UseGuards()`.
 */
export function operationGuards(
  config: ApplicationConfig,
  host: OperationHost,
): readonly Function[] {
  const method = (host.type as { prototype: Record<string, object> }).prototype[
    host.methodName
  ];
  const entries: readonly GuardEntry[] = [
    ...config.getGlobalGuards(),
    ...config.getGlobalRequestGuards().map((wrapper) => wrapper.metatype),
    ...guardsOn(host.type),
    ...guardsOn(method),
  ].filter(
    (entry): entry is GuardEntry => entry !== null && entry !== undefined,
  );
  return entries.map((entry) =>
    typeof entry === 'function' ? entry : entry.constructor,
  );
}

function guardsOn(target: object): readonly GuardEntry[] {
  return (
    (Reflect.getMetadata(guardsMetadataKey(), target) as GuardEntry[]) ?? []
  );
}
