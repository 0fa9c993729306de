import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Metadata = ReturnType<Lookup>[number];

const INSTALLED = Symbol.for('nestops:validation-metadata-cache');

/**
 * Memoises class-validator's `getTargetValidationMetadatas`, which scans
 * every decorated class of the app on each validation of each object to
 * find a class's inherited rules (typestack/class-validator#2686), so a
 * call's cost grew with the number of DTO classes. The answer for a class
 * is kept per (schema, always, strictGroups, groups), and everything is
 * forgotten whenever a rule is added, so classes decorated later are seen;
 * each caller gets its own copy of the list. Installed once per process on
 * class-validator's global storage: the app's own validation gains too.
 */
export function installValidationMetadataCache(
  storage: Storage = getMetadataStorage(),
): void {
  const marked = storage as Storage & { [INSTALLED]?: true };
  if (marked[INSTALLED]) {
    return;
  }
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let known = new WeakMap<object, Map<string, readonly Metadata[]>>();
  storage.addValidationMetadata = (metadata) => {
    known = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (
    target,
    schema,
    always,
    strictGroups,
    groups,
  ) => {
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
  marked[INSTALLED] = true;
}
