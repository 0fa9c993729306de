import { RequestStateSeal } from './request-state.js';

const KEY = 'a-key-of-at-least-thirty-two-characters';
const NEWER = 'a-newer-key-of-at-least-thirty-two-chars';

describe('RequestStateSeal', () => {
  it('opens what it sealed, which the client can neither read nor change', () => {
    const seal = new RequestStateSeal([KEY]);
    const token = seal.seal({ answer: 'secret text' });
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toMatch(
      /secret/,
    );
    expect(seal.open(token)).toEqual({ answer: 'secret text' });
    for (let at = 0; at < Buffer.from(token, 'base64url').length; at += 1) {
      const bytes = Buffer.from(token, 'base64url');
      bytes[at] ^= 0x01;
      expect(seal.open(bytes.toString('base64url'))).toBeUndefined();
    }
  });

  it('seals with the first key and opens with any (rotation)', () => {
    const old = new RequestStateSeal([KEY]);
    const rotated = new RequestStateSeal([NEWER, KEY]);
    expect(rotated.open(old.seal({ n: 1 }))).toEqual({ n: 1 });
    expect(old.open(rotated.seal({ n: 2 }))).toBeUndefined();
  });

  it.each(['', 'not base64!', 'AAAA', `${'A'.repeat(60)}`])(
    'opens nothing from %o',
    (token) => {
      expect(new RequestStateSeal([KEY]).open(token)).toBeUndefined();
    },
  );

  it('has nothing to seal with and nothing it opens without keys', () => {
    const seal = new RequestStateSeal([]);
    expect(seal.ready).toBe(false);
    expect(seal.open(new RequestStateSeal([KEY]).seal({}))).toBeUndefined();
  });
});
