import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './locale-negotiation.js';

const LANGUAGES = ['en-US', 'zh-CN', 'de'];

describe('negotiateLocale', () => {
  it.each([
    ['zh-CN', 'zh-CN'],
    ['ZH-cn', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh;q=0.9, en;q=0.8', 'zh-CN'],
    ['en;q=0.8, zh;q=0.9', 'zh-CN'],
    ['de;q=0.1, zh-CN;q=0', 'de'],
    ['fr, de;q=0.5', 'de'],
    ['en-GB', 'en-US'],
    ['zh-TW', 'zh-CN'],
    ['*', 'en-US'],
    ['fr', 'en-US'],
    ['', 'en-US'],
    [undefined, 'en-US'],
    ['garbage;;;q=x', 'en-US'],
    [';q=1,,,', 'en-US'],
  ])('%j -> %s', (preference, expected) => {
    expect(negotiateLocale(preference, LANGUAGES, 'en-US')).toBe(expected);
  });

  it("applies the app's language fallbacks before the loose match", () => {
    const map = (tag: string) => (tag === 'pt-BR' ? 'de' : tag);
    expect(negotiateLocale('pt-BR', LANGUAGES, 'en-US', map)).toBe('de');
  });

  it('answers with the fallback for a wildcard even when it is listed last', () => {
    expect(negotiateLocale('*', ['de', 'en-US'], 'en-US')).toBe('en-US');
  });

  it('only ever answers one of the languages or the fallback', () => {
    for (const preference of ['x-klingon', 'i-default', 'en-US-x-private']) {
      expect([...LANGUAGES]).toContain(
        negotiateLocale(preference, LANGUAGES, 'en-US'),
      );
    }
  });
});
