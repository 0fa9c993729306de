import 'reflect-metadata';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  MetadataStorage,
  Min,
  MinLength,
  validate,
} from 'class-validator';
import { describe, expect, it, vi } from 'vitest';
import { registeredValidationRules } from '../internals/class-validator.adapter.js';
import { installValidationMetadataCache } from './validation-metadata-cache.js';

class Base {
  @IsString()
  name: string;
}

class Child extends Base {
  @IsInt({ groups: ['admin'] })
  @Min(1)
  amount: number;
}

// A family whose base is decorated after its subclasses, with an override
// and a class without rules of its own between two that have some.
class Leaf extends Child {
  @Min(0)
  count: number;
}
// Overrides Base's rule on `name`.
IsString({ groups: ['admin'], always: true })(Leaf.prototype, 'name');
class Bare extends Leaf {}
class Deep extends Bare {
  @MaxLength(3)
  code: string;
}
class Root {}
class Branch extends Root {
  @IsInt()
  size: number;
}
IsOptional()(Root.prototype, 'size');
MinLength(2)(Root.prototype, 'label');

const storage = getMetadataStorage();
const original = storage.getTargetValidationMetadatas.bind(storage);
const FAMILY = [Base, Child, Leaf, Bare, Deep, Root, Branch];
const ARGS: Array<[boolean, boolean, string[] | undefined]> = [
  [true, false, undefined],
  [false, false, undefined],
  [false, true, undefined],
  [false, false, ['admin']],
  [false, true, []],
];

describe('installValidationMetadataCache', () => {
  installValidationMetadataCache();

  it.each(ARGS)(
    'answers what class-validator answers (always %s, strictGroups %s, groups %j)',
    (always, strictGroups, groups) => {
      for (const target of FAMILY) {
        expect(
          storage.getTargetValidationMetadatas(
            target,
            '',
            always,
            strictGroups,
            groups,
          ),
        ).toEqual(original(target, '', always, strictGroups, groups));
      }
    },
  );

  it('scans the registered classes once per class, not on every validation', async () => {
    const registered = registeredValidationRules(storage);
    const scans = vi.spyOn(registered, 'entries');
    await validate(Object.assign(new Child(), { name: 'x', amount: 1 }));
    const first = scans.mock.calls.length;
    for (let i = 0; i < 50; i++) {
      await validate(Object.assign(new Child(), { name: 'x', amount: 1 }));
    }
    expect(scans.mock.calls.length).toBe(first);
    scans.mockRestore();
  });

  it('sees rules added later, on a class already looked up and on a new subclass', async () => {
    const before = await validate(Object.assign(new Child(), { name: '' }));
    expect(before.map((e) => e.property)).toEqual(['amount']);
    MinLength(1)(Base.prototype, 'name');
    class Grandchild extends Child {}
    for (const object of [
      Object.assign(new Child(), { name: '', amount: 1 }),
      Object.assign(new Grandchild(), { name: '', amount: 1 }),
    ]) {
      const errors = await validate(object);
      expect(errors.map((e) => Object.keys(e.constraints ?? {}))).toEqual([
        ['minLength'],
      ]);
    }
  });

  it("finds a class's inherited rules without scanning the registered classes", () => {
    const registered = registeredValidationRules(storage);
    const scans = vi.spyOn(registered, 'entries');
    const indexes = vi.spyOn(registered, 'forEach');
    const classes = Array.from({ length: 300 }, (_, index) => {
      const dto = { [`Many${index}`]: class extends Child {} }[`Many${index}`];
      Min(index)(dto.prototype, 'amount');
      return dto;
    });
    indexes.mockClear();
    for (const dto of classes) {
      const rules = storage.getTargetValidationMetadatas(dto, '', true, false);
      expect(rules).toEqual(original(dto, '', true, false));
      // Its own `amount` rule (class-validator drops Child's, which share
      // its type, customValidation) and Base's two `name` rules.
      expect(rules.map((rule) => rule.propertyName).sort()).toEqual([
        'amount',
        'name',
        'name',
      ]);
    }
    // The cached lookup itself: one index of the registered classes, and
    // no scan (the comparisons with `original` above scan, once each).
    expect(indexes).toHaveBeenCalledTimes(1);
    expect(scans).toHaveBeenCalledTimes(classes.length);
    scans.mockRestore();
    indexes.mockRestore();
  });

  it('answers as class-validator does when a registered key is not a plain class', () => {
    const own = new MetadataStorage();
    const plain = own.getTargetValidationMetadatas.bind(own);
    installValidationMetadataCache(own);
    class Parent {}
    class Odd extends Parent {
      static override [Symbol.hasInstance](): boolean {
        return false;
      }
    }
    class Kid extends Parent {}
    const rule = (target: Function, propertyName: string, type: string) =>
      own.addValidationMetadata({
        target,
        propertyName,
        type,
        groups: [],
        each: false,
        context: undefined,
        constraints: [],
        validationTypeOptions: undefined,
      } as unknown as Parameters<MetadataStorage['addValidationMetadata']>[0]);
    rule(Parent, 'name', 'isString');
    rule(Kid, 'age', 'isInt');
    const before = own.getTargetValidationMetadatas(Kid, '', true, false);
    expect(before).toEqual(plain(Kid, '', true, false));
    expect(before.map((each) => each.propertyName)).toEqual(['age', 'name']);
    rule(Odd, 'flag', 'isBoolean');
    const registered = registeredValidationRules(own);
    const scans = vi.spyOn(registered, 'entries');
    expect(own.getTargetValidationMetadatas(Kid, '', true, false)).toEqual(
      before,
    );
    expect(scans).toHaveBeenCalledTimes(1);
    scans.mockRestore();
  });

  it('hands each caller its own list', () => {
    const list = storage.getTargetValidationMetadatas(Child, '', true, false);
    list.length = 0;
    expect(
      storage.getTargetValidationMetadatas(Child, '', true, false).length,
    ).toBeGreaterThan(0);
  });

  it('installs once', () => {
    const patched = storage.getTargetValidationMetadatas;
    installValidationMetadataCache();
    expect(storage.getTargetValidationMetadatas).toBe(patched);
  });
});
