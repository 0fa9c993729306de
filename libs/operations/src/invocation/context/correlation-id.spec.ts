import { correlationIdOf } from './correlation-id.js';

const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('correlationIdOf', () => {
  it.each([
    'abc',
    'a',
    '!~',
    'x'.repeat(128),
    '4f1c2a9e-0b7d-4c55-9a3e-2d8f6b1e7c40',
  ])('keeps the well-formed X-Correlation-Id %j', (given) => {
    expect(correlationIdOf({ 'x-correlation-id': given })).toBe(given);
  });

  it('takes the first of repeated headers', () => {
    expect(correlationIdOf({ 'x-correlation-id': ['first', 'second'] })).toBe(
      'first',
    );
  });

  it.each<[string, string | string[] | undefined]>([
    ['absent', undefined],
    ['empty', ''],
    ['129 characters', 'x'.repeat(129)],
    ['with a space', 'a b'],
    ['with a tab', 'a\tb'],
    ['with a non-ASCII letter', 'bestellung-ä'],
    ['an empty list', []],
  ])(
    'replaces an X-Correlation-Id that is %s with a new UUID',
    (_name, given) => {
      const first = correlationIdOf({ 'x-correlation-id': given });
      const second = correlationIdOf({ 'x-correlation-id': given });

      expect(first).toMatch(UUID);
      expect(second).toMatch(UUID);
      expect(first).not.toBe(second);
    },
  );
});
