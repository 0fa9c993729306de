import { getMetadataStorage, IsString, MetadataStorage } from 'class-validator';
import { createRequire } from 'node:module';
import {
  assertClassValidatorInternals,
  registeredValidationRules,
} from './class-validator.adapter.js';

const VERSION = () => 'class-validator 9.9.9';
const PREFIX =
  "class-validator 9.9.9 lacks what @nestops/operations needs to read every DTO's rules for the tool schemas: ";

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
        'MetadataStorage.getTargetValidatorConstraints. ',
    );
  });

  it.each([
    ['validationMetadatas', 'MetadataStorage.validationMetadatas (a Map)'],
    [
      'getTargetValidationMetadatas',
      'MetadataStorage.getTargetValidationMetadatas',
    ],
    [
      'getTargetValidatorConstraints',
      'MetadataStorage.getTargetValidatorConstraints',
    ],
  ])('names a missing %s', (member, name) => {
    expect(() =>
      assertClassValidatorInternals(storageWithout(member), VERSION),
    ).toThrow(`${PREFIX}${name}. `);
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
