/* eslint-disable @typescript-eslint/no-require-imports -- class-transformer's storage is loaded on first use, so that a release without it fails the assertion with its name */
/**
 * The one place that touches class-transformer internals: its metadata
 * storage (`class-transformer/cjs/storage`), which the package does not
 * export, holds each property's `@Type()`, `@Expose()` and `@Exclude()`.
 * `assertClassTransformerInternals()` checks at bootstrap that it is there.
 */
import type { TypeMetadata } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import { missingInternalsMessage } from './internals.messages.js';
import {
  installedVersion,
  loadPrivateModule,
  missingMethods,
} from './private-module.js';

export type { TypeMetadata };

/** class-transformer's metadata storage, as the library and class-validator-jsonschema read it. */
export type ClassTransformerStorage = MetadataStorage;

// The package does not export its storage: typestack/class-transformer#815
// asks for it (open; PR typestack/class-transformer#1715, open).
const PATH = 'class-transformer/cjs/storage';

/** `class-transformer/cjs/storage` as loaded. */
type StorageModule = Partial<Record<'defaultMetadataStorage', unknown>>;

/** The storage module as loaded, undefined where the installed release lacks it. */
export function loadClassTransformerStorage(): StorageModule | undefined {
  return loadPrivateModule(
    () => require('class-transformer/cjs/storage') as StorageModule,
  );
}

function installedClassTransformer(): string {
  return `class-transformer ${installedVersion(() => require('class-transformer/package.json'))}`;
}

/**
 * Throws, naming the installed class-transformer and what is missing, when
 * its storage is not where the library reads it, and returns it. `load` and
 * `version` are the installed ones unless given (as tests give other shapes).
 */
export function assertClassTransformerInternals(
  load: () => StorageModule | undefined = loadClassTransformerStorage,
  version: () => string = installedClassTransformer,
): ClassTransformerStorage {
  const module = load();
  const storage = module?.defaultMetadataStorage;
  const missing =
    module === undefined
      ? [PATH]
      : typeof storage !== 'object' || storage === null
        ? [`${PATH} (defaultMetadataStorage)`]
        : missingMethods('defaultMetadataStorage', storage, [
            'findTypeMetadata',
            'findExcludeMetadata',
            'getExposedMetadatas',
          ]);
  if (missing.length > 0) {
    throw new Error(
      missingInternalsMessage(
        version(),
        "read DTOs' @Type(), @Expose() and @Exclude() for their schemas and input checks",
        missing,
      ),
    );
  }
  return storage as unknown as ClassTransformerStorage;
}

let checked: ClassTransformerStorage | undefined;

/** class-transformer's storage, checked on first use (throws, naming what is missing). */
export function classTransformerStorage(): ClassTransformerStorage {
  checked ??= assertClassTransformerInternals();
  return checked;
}

/** The `@Type()` of a class's property, or undefined. */
export function typeMetadataOf(
  type: Function,
  property: string,
): TypeMetadata | undefined {
  return classTransformerStorage().findTypeMetadata(type, property);
}
