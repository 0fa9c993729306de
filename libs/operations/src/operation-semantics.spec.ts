import {
  operationSemantics,
  OperationSemantics,
} from './operation-semantics.js';

const READ: OperationSemantics = {
  readOnly: true,
  destructive: false,
  idempotent: true,
};
const CREATE: OperationSemantics = {
  readOnly: false,
  destructive: false,
  idempotent: false,
};
const UPDATE: OperationSemantics = {
  readOnly: false,
  destructive: false,
  idempotent: true,
};
const DELETE: OperationSemantics = {
  readOnly: false,
  destructive: true,
  idempotent: true,
};
const OTHER: OperationSemantics = {
  readOnly: false,
  destructive: true,
  idempotent: false,
};

describe('operationSemantics: what each verb (and readOnly) says a call does to state', () => {
  it.each<[string, boolean | undefined, OperationSemantics]>([
    ['get', undefined, READ],
    ['list', undefined, READ],
    ['get', false, READ],
    ['list', false, READ],
    ['search', true, READ],
    ['export', true, READ],
    ['create', undefined, CREATE],
    ['update', undefined, UPDATE],
    ['delete', undefined, DELETE],
    ['create', false, CREATE],
    ['search', undefined, OTHER],
    ['search', false, OTHER],
    ['send', undefined, OTHER],
    ['approve', undefined, OTHER],
  ])('%s (readOnly: %s)', (verb, readOnly, expected) => {
    expect(operationSemantics(verb, readOnly)).toEqual(expected);
  });

  it('readOnly: true wins over a mutating verb', () => {
    expect(operationSemantics('delete', true)).toEqual(READ);
    expect(operationSemantics('create', true)).toEqual(READ);
  });

  it('matches verbs exactly (case and whitespace matter)', () => {
    expect(operationSemantics('Get')).toEqual(OTHER);
    expect(operationSemantics('LIST')).toEqual(OTHER);
    expect(operationSemantics('create ')).toEqual(OTHER);
    expect(operationSemantics('')).toEqual(OTHER);
  });

  it.each([
    'constructor',
    'toString',
    '__proto__',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    '__defineGetter__',
  ])('treats the Object.prototype name %j as any other verb', (verb) => {
    expect(operationSemantics(verb)).toEqual(OTHER);
    expect(operationSemantics(verb, false)).toEqual(OTHER);
    expect(operationSemantics(verb, true)).toEqual(READ);
  });

  it('returns frozen values of exactly three booleans', () => {
    for (const verb of ['get', 'create', 'update', 'delete', 'search']) {
      const semantics = operationSemantics(verb);
      expect(Object.isFrozen(semantics)).toBe(true);
      expect(Object.keys(semantics).sort()).toEqual([
        'destructive',
        'idempotent',
        'readOnly',
      ]);
    }
  });
});
