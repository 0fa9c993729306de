/* eslint-disable @typescript-eslint/no-require-imports -- the installed version is read from class-validator's package.json for the messages */
/**
 * The one place that touches class-validator internals: the rules it keeps
 * by class (`MetadataStorage`'s private `validationMetadatas`), read where
 * the library needs every decorated class. `assertClassValidatorInternals()`
 * checks at bootstrap that it is as the library expects.
 */
import { getMetadataStorage, type MetadataStorage } from 'class-validator';
import { missingInternalsMessage } from './internals.messages.js';
import { installedVersion, missingMethods } from './private-module.js';

/** class-validator's metadata storage (its public class). */
export type ValidationStorage = MetadataStorage;

type Lookup = ValidationStorage['getTargetValidationMetadatas'];

/** One rule (a decorator on a property) as class-validator keeps it. */
export type ValidationMetadata = ReturnType<Lookup>[number];

/** The rules class-validator keeps, by the class (or schema name) they were registered for. */
export type RegisteredRules = ReadonlyMap<
  Function | string,
  readonly ValidationMetadata[]
>;

// `MetadataStorage` lists no class's rules but by lookup of a known class:
// typestack/class-validator#1041 asks for the list (open).
interface Registered {
  readonly validationMetadatas: Map<Function | string, ValidationMetadata[]>;
}

function installedClassValidator(): string {
  return `class-validator ${installedVersion(() => require('class-validator/package.json'))}`;
}

/**
 * Throws, naming the installed class-validator and what is missing, when
 * its storage is not as the library reads it. `storage` and `version` are
 * the installed ones unless given (as tests give other shapes).
 */
export function assertClassValidatorInternals(
  storage: ValidationStorage = getMetadataStorage(),
  version: () => string = installedClassValidator,
): void {
  const own = storage as unknown as Partial<Record<keyof Registered, unknown>>;
  const methods = missingMethods('MetadataStorage', storage, [
    'getTargetValidationMetadatas',
    'getTargetValidatorConstraints',
  ]);
  const rules = own.validationMetadatas instanceof Map;
  const missing = [
    ...(rules ? [] : ['MetadataStorage.validationMetadatas (a Map)']),
    ...methods,
  ];
  if (missing.length > 0) {
    throw new Error(
      missingInternalsMessage(
        version(),
        "read every DTO's rules for the tool schemas",
        missing,
      ),
    );
  }
}

/**
 * Every rule class-validator holds, by the class (or schema name) it was
 * registered for: what it keeps internally, read where the library needs
 * all decorated classes. Throws, as the assertion does, when it is not there.
 */
export function registeredValidationRules(
  storage: ValidationStorage = getMetadataStorage(),
): RegisteredRules {
  const rules = (storage as unknown as Partial<Registered>).validationMetadatas;
  if (!(rules instanceof Map)) {
    assertClassValidatorInternals(storage);
  }
  return rules as RegisteredRules;
}
