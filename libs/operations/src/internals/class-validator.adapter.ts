/* eslint-disable @typescript-eslint/no-require-imports -- the installed version is read from class-validator's package.json for the messages */
/**
 * The one place that touches class-validator internals: the rules it keeps
 * by class (`MetadataStorage`'s private `validationMetadatas`), read where
 * the library needs every decorated class, and its storage's methods,
 * replaced process-wide by the lookup cache. `assertClassValidatorInternals()`
 * checks at bootstrap that both are as the library expects.
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

interface Registered {
  readonly validationMetadatas: Map<Function | string, ValidationMetadata[]>;
}

const PATCHED = Symbol.for('nestops:validation-metadata-cache');

type Patched = ValidationStorage & { [PATCHED]?: true };

function installedClassValidator(): string {
  return `class-validator ${installedVersion(() => require('class-validator/package.json'))}`;
}

/** Whether class-validator's own lookup reads the rules from `validationMetadatas`. */
function lookupReadsRegisteredRules(storage: ValidationStorage): boolean {
  class Probe {}
  const rule = {
    target: Probe,
    propertyName: 'probe',
  } as unknown as ValidationMetadata;
  const view = Object.create(storage, {
    validationMetadatas: { value: new Map([[Probe, [rule]]]) },
  }) as ValidationStorage;
  try {
    const found = storage.getTargetValidationMetadatas.call(
      view,
      Probe,
      '',
      true,
      false,
    );
    return found.length === 1 && found[0] === rule;
  } catch {
    return false;
  }
}

/**
 * Throws, naming the installed class-validator and what is missing, when
 * its storage is not as the library reads and patches it. `storage` and
 * `version` are the installed ones unless given (as tests give other
 * shapes). A storage the library has patched was checked then.
 */
export function assertClassValidatorInternals(
  storage: ValidationStorage = getMetadataStorage(),
  version: () => string = installedClassValidator,
): void {
  if ((storage as Patched)[PATCHED]) {
    return;
  }
  const own = storage as unknown as Partial<Record<keyof Registered, unknown>>;
  const methods = missingMethods('MetadataStorage', storage, [
    'getTargetValidationMetadatas',
    'addValidationMetadata',
    'getTargetValidatorConstraints',
  ]);
  const rules = own.validationMetadatas instanceof Map;
  const missing = [
    ...(rules ? [] : ['MetadataStorage.validationMetadatas (a Map)']),
    ...methods,
    ...(rules && methods.length === 0 && !lookupReadsRegisteredRules(storage)
      ? [
          'MetadataStorage.getTargetValidationMetadatas reading this.validationMetadatas',
        ]
      : []),
  ];
  if (missing.length > 0) {
    throw new Error(
      missingInternalsMessage(
        version(),
        "read every DTO's rules for the tool schemas and cache rule lookups",
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

/** class-validator's own lookup, over the whole storage or only over `rules`. */
export type OwnLookup = (
  args: Parameters<Lookup>,
  rules?: RegisteredRules,
) => ValidationMetadata[];

/** What replaces class-validator's lookup: the lookup, and what to do when a rule is added. */
export interface LookupPatch {
  readonly lookup: Lookup;
  /** Called before each new rule is stored. */
  readonly ruleAdded: () => void;
}

/**
 * Replaces `storage`'s `getTargetValidationMetadatas` with the lookup that
 * `patch` builds on class-validator's own, and tells it of each rule added
 * (`addValidationMetadata`, which `registerSchema` calls too). Once per
 * storage, after the assertion: on class-validator's global storage it
 * holds for the whole process.
 */
export function patchValidationStorage(
  storage: ValidationStorage,
  patch: (own: OwnLookup) => LookupPatch,
): void {
  const marked = storage as Patched;
  if (marked[PATCHED]) {
    return;
  }
  assertClassValidatorInternals(storage);
  const original = storage.getTargetValidationMetadatas;
  const add = storage.addValidationMetadata.bind(storage);
  const own: OwnLookup = (args, rules) =>
    original.apply(
      rules
        ? (Object.create(storage, {
            validationMetadatas: { value: rules },
          }) as ValidationStorage)
        : storage,
      args,
    );
  const { lookup, ruleAdded } = patch(own);
  storage.addValidationMetadata = (metadata) => {
    ruleAdded();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = lookup;
  marked[PATCHED] = true;
}
