import 'reflect-metadata';
import {
  getMetadataStorage,
  IsInt,
  IsString,
  Min,
  MinLength,
  validate,
} from 'class-validator';
import { describe, expect, it, vi } from 'vitest';
import { installValidationMetadataCache } from './validation-metadata-cache';

class Base {
  @IsString()
  name: string;
}

class Child extends Base {
  @IsInt({ groups: ['admin'] })
  @Min(1)
  amount: number;
}

const storage = getMetadataStorage();
const original = storage.getTargetValidationMetadatas.bind(storage);
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
      for (const target of [Base, Child]) {
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
    const registered = (
      storage as unknown as { validationMetadatas: Map<unknown, unknown> }
    ).validationMetadatas;
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
