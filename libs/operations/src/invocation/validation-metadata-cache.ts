import { getMetadataStorage } from 'class-validator';
import {
  patchValidationStorage,
  registeredValidationRules,
  type LookupPatch,
  type OwnLookup,
  type RegisteredRules,
  type ValidationMetadata,
  type ValidationStorage,
} from '../internals/class-validator.adapter.js';

type Lookup = ValidationStorage['getTargetValidationMetadatas'];

/**
 * class-validator's global storage with the cache installed: what the
 * library reads a class's rules from, so that even discovery at startup
 * looks each class up through it.
 */
export function validationStorage(): ValidationStorage {
  installValidationMetadataCache();
  return getMetadataStorage();
}

/**
 * Memoises class-validator's `getTargetValidationMetadatas`, which scans
 * every decorated class of the app on each validation of each object to
 * find a class's inherited rules (typestack/class-validator#2686), so a
 * call's cost grew with the number of DTO classes. The answer for a class
 * is kept per (schema, always, strictGroups, groups), and everything is
 * forgotten whenever a rule is added, so classes decorated later are seen;
 * each caller gets its own copy of the list. A class's first answer is
 * class-validator's own, computed over the rules of that class and its
 * ancestors only (found by its prototype chain, in registration order), so
 * looking up every class once is linear in their number too. Installed once
 * per process on class-validator's global storage: the app's own
 * validation gains too.
 */
export function installValidationMetadataCache(
  storage: ValidationStorage = getMetadataStorage(),
): void {
  patchValidationStorage(storage, (own) => cachedLookup(storage, own));
}

function cachedLookup(storage: ValidationStorage, own: OwnLookup): LookupPatch {
  let known = new WeakMap<object, Map<string, readonly ValidationMetadata[]>>();
  /** Null while some registered key is not a plain class. */
  let lineage: Lineage | null | undefined;
  const ruleAdded = () => {
    known = new WeakMap();
    lineage = undefined;
  };
  const lookup = (...args: Parameters<Lookup>) => {
    const target = args[0];
    if (typeof target === 'function') {
      if (lineage === undefined) {
        lineage = Lineage.of(registeredValidationRules(storage)) ?? null;
      }
      const rules = lineage?.rulesFor(target);
      if (rules) {
        return own(args, rules);
      }
    }
    return own(args);
  };
  const cached: Lookup = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function') {
      return lookup(target, schema, always, strictGroups, groups);
    }
    const key = `${schema}\0${always}\0${strictGroups}\0${groups?.join('\0') ?? '\0'}`;
    let answers = known.get(target);
    if (!answers) {
      answers = new Map();
      known.set(target, answers);
    }
    let answer = answers.get(key);
    if (!answer) {
      answer = lookup(target, schema, always, strictGroups, groups);
      answers.set(key, answer);
    }
    return answer.slice();
  };
  return { lookup: cached, ruleAdded };
}

/**
 * The registered classes indexed by prototype and registration order, for
 * one state of the storage: what class-validator finds by testing
 * `target.prototype instanceof` every registered class, found by walking
 * the target's prototype chain instead.
 */
class Lineage {
  private constructor(
    private readonly registered: RegisteredRules,
    private readonly byPrototype: Map<object, Function[]>,
    private readonly order: Map<Function, number>,
  ) {}

  /**
   * Undefined when some registered key is not a plain class (a schema's
   * name, a class with its own `Symbol.hasInstance`): then only the full
   * scan answers as class-validator does.
   */
  static of(registered: RegisteredRules): Lineage | undefined {
    const byPrototype = new Map<object, Function[]>();
    const order = new Map<Function, number>();
    let plain = true;
    registered.forEach((_rules, key) => {
      if (
        typeof key !== 'function' ||
        key[Symbol.hasInstance] !== Function.prototype[Symbol.hasInstance] ||
        typeof key.prototype !== 'object' ||
        key.prototype === null
      ) {
        plain = false;
        return;
      }
      order.set(key, order.size);
      const classes = byPrototype.get(key.prototype);
      if (classes) {
        classes.push(key);
      } else {
        byPrototype.set(key.prototype, [key]);
      }
    });
    return plain ? new Lineage(registered, byPrototype, order) : undefined;
  }

  /**
   * The rules of `target` and of its ancestors, in registration order: all
   * that class-validator's lookup needs to find for `target`.
   */
  rulesFor(target: Function): RegisteredRules | undefined {
    if (typeof target.prototype !== 'object' || target.prototype === null) {
      return undefined;
    }
    const related: Function[] = this.order.has(target) ? [target] : [];
    for (
      let prototype: unknown = Object.getPrototypeOf(target.prototype);
      prototype !== null && typeof prototype === 'object';
      prototype = Object.getPrototypeOf(prototype)
    ) {
      related.push(...(this.byPrototype.get(prototype) ?? []));
    }
    related.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
    return new Map(related.map((type) => [type, this.registered.get(type)!]));
  }
}
