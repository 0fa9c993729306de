import type { OperationDefinition } from '@nestops/operations';
import { inputOfVariables, uriMatcher } from './resource-uri.js';

describe('uriMatcher', () => {
  it('matches a fixed URI exactly, nothing more', () => {
    const fixed = uriMatcher('orders://recent');
    expect(fixed.match('orders://recent')).toEqual({});
    expect(fixed.match('orders://recent/')).toBeUndefined();
    expect(fixed.match('orders://recentX')).toBeUndefined();
  });

  it('takes one decoded path segment per variable, never an empty one', () => {
    const template = uriMatcher('test://template/{id}/data');
    expect(template.match('test://template/a%20b/data')).toEqual({
      id: 'a b',
    });
    expect(template.match('test://template//data')).toBeUndefined();
    expect(template.match('test://template/a/b/data')).toBeUndefined();
    expect(template.match('test://template/a?x/data')).toBeUndefined();
  });

  it('takes the template literally: regular expression characters are plain', () => {
    const template = uriMatcher('a+b://x.{id}');
    expect(template.match('a+b://x.7')).toEqual({ id: '7' });
    expect(template.match('aab://xx7')).toBeUndefined();
    expect(template.literals).toBe('a+b://x.'.length);
  });

  it('refuses a malformed percent-encoding', () => {
    expect(uriMatcher('n://{name}').match('n://%E0%A4%A')).toBeUndefined();
  });
});

describe('inputOfVariables', () => {
  const operation = {
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        ratio: { type: ['number', 'null'] },
        on: { type: 'boolean' },
        name: { type: 'string' },
      },
    },
  } as unknown as OperationDefinition;

  it("gives each value its property's JSON type", () => {
    expect(
      inputOfVariables(operation, {
        id: '-12',
        ratio: '1e3',
        on: 'false',
        name: '42',
      }),
    ).toEqual({ id: -12, ratio: 1000, on: false, name: '42' });
  });

  it.each([
    ['id', '1.5'],
    ['id', '12a'],
    ['ratio', ''],
    ['ratio', 'Infinity'],
    ['on', 'TRUE'],
  ])('has no input for %s = %j', (name, value) => {
    expect(inputOfVariables(operation, { [name]: value })).toBeUndefined();
  });
});
