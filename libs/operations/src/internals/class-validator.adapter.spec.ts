import { getMetadataStorage, IsString, MetadataStorage } from 'class-validator';
import { createRequire } from 'node:module';
import {
  assertClassValidatorInternals,
  type OwnLookup,
  patchValidationStorage,
  registeredValidationRules,
} from './class-validator.adapter.js';

const VERSION = () => 'class-validator 9.9.9';
const PREFIX =
  "class-validator 9.9.9 lacks what @nestops/operations needs to read every DTO's rules for the tool schemas and cache rule lookups: ";

/** A storage of the installed class-validator without one of its members. */
function storageWithout(member: string): MetadataStorage {
  const storage = new MetadataStorage();
  Object.defineProperty(storage, member, { value: undefined });
  return storage;
}

describe('assertClassValidatorInternals', () => {
  it('accepts the installed storage', () => {
    expect(() => assertClassValidatorInternals()).not.toThrow();
    expect(() =>
      assertClassValidatorInternals(new MetadataStorage()),
    ).not.toThrow();
  });

  it('names the installed class-validator and every internal missing from a storage of another shape', () => {
    expect(() =>
      assertClassValidatorInternals({} as MetadataStorage, VERSION),
    ).toThrow(
      PREFIX +
        'MetadataStorage.validationMetadatas (a Map), MetadataStorage.getTargetValidationMetadatas, ' +
        'MetadataStorage.addValidationMetadata, MetadataStorage.getTargetValidatorConstraints. ',
    );
  });

  it.each([
    ['validationMetadatas', 'MetadataStorage.validationMetadatas (a Map)'],
    ['addValidationMetadata', 'MetadataStorage.addValidationMetadata'],
    [
      'getTargetValidatorConstraints',
      'MetadataStorage.getTargetValidatorConstraints',
    ],
  ])('names a missing %s', (member, name) => {
    expect(() =>
      assertClassValidatorInternals(storageWithout(member), VERSION),
    ).toThrow(`${PREFIX}${name}. `);
  });

  it('names a lookup that no longer reads the rules it keeps by class', () => {
    const storage = new MetadataStorage();
    storage.getTargetValidationMetadatas = () => [];

    expect(() => assertClassValidatorInternals(storage, VERSION)).toThrow(
      `${PREFIX}MetadataStorage.getTargetValidationMetadatas reading this.validationMetadatas. `,
    );
  });

  it('names the installed version by default', () => {
    const { version } = createRequire(__filename)(
      'class-validator/package.json',
    ) as { version: string };

    expect(() => assertClassValidatorInternals({} as MetadataStorage)).toThrow(
      `class-validator ${version} lacks what @nestops/operations needs`,
    );
  });
});

describe('registeredValidationRules', () => {
  it("is class-validator's own map of the rules by class", () => {
    class Named {
      @IsString()
      name: string;
    }

    const rules = registeredValidationRules();

    expect(rules.get(Named)?.map((rule) => rule.propertyName)).toEqual([
      'name',
    ]);
    expect(rules).toBe(registeredValidationRules(getMetadataStorage()));
  });

  it('throws the assertion where the storage keeps no such map, instead of finding no rules', () => {
    expect(() =>
      registeredValidationRules(storageWithout('validationMetadatas')),
    ).toThrow(/MetadataStorage\.validationMetadatas \(a Map\)/);
  });
});

describe('patchValidationStorage', () => {
  it('asserts before it patches, and leaves a storage of another shape as it was', () => {
    const storage = storageWithout('validationMetadatas');
    const own = storage.getTargetValidationMetadatas;

    expect(() =>
      patchValidationStorage(storage, () => ({
        lookup: () => [],
        ruleAdded: () => undefined,
      })),
    ).toThrow(/MetadataStorage\.validationMetadatas \(a Map\)/);
    expect(storage.getTargetValidationMetadatas).toBe(own);
  });

  it('patches a storage once, and its own lookup reads the rules given', () => {
    const storage = new MetadataStorage();
    const added: string[] = [];
    let patches = 0;
    const patch = (own: OwnLookup) => {
      patches += 1;
      return {
        lookup: (...args: Parameters<OwnLookup>[0]) => own(args, new Map()),
        ruleAdded: () => added.push('rule'),
      };
    };
    class Target {}
    IsString()(Target.prototype, 'name');
    patchValidationStorage(storage, patch);
    patchValidationStorage(storage, patch);
    storage.addValidationMetadata(
      getMetadataStorage().getTargetValidationMetadatas(
        Target,
        '',
        true,
        false,
      )[0],
    );

    expect(patches).toBe(1);
    expect(added).toEqual(['rule']);
    expect(registeredValidationRules(storage).get(Target)).toHaveLength(1);
    expect(
      storage.getTargetValidationMetadatas(Target, '', true, false),
    ).toEqual([]);
    expect(() => assertClassValidatorInternals(storage, VERSION)).not.toThrow();
  });
});
