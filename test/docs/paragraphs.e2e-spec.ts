import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pagesUnder } from './doc-pages';
import { paragraphsOf, sentencesOf } from './prose-paragraphs';

/**
 * docs/CONVENTIONS.md's rule, at most three sentences a paragraph, on every
 * page of the site and on CONTRIBUTING.md: paragraphs and list items of
 * prose, not code, tables or headings.
 */
const ROOT = join(__dirname, '../..');

const PAGES = [...pagesUnder(join(ROOT, 'docs')), 'CONTRIBUTING.md'];

describe('counting sentences', () => {
  it('ends a sentence at a full stop before a capital, a digit or code, not inside code or after e.g.', () => {
    expect(
      sentencesOf(
        'Set `a.b. C` here, e.g. with `x`. **Tokens.** It runs. 2 calls wait! `id` is kept? Yes.',
      ),
    ).toEqual([
      'Set CODE here, ABBR with CODE.',
      'TITLE It runs.',
      '2 calls wait!',
      'CODE is kept?',
      'Yes.',
    ]);
  });

  it('takes paragraphs and list items, leaving out code, tables, headings and front matter', () => {
    const page = join(mkdtempSync(join(tmpdir(), 'paragraphs-')), 'page.md');
    writeFileSync(
      page,
      [
        '---',
        'title: One. Two. Three. Four.',
        '---',
        '# A. B. C. D.',
        '',
        'One. Two.',
        'Three. Four.',
        '',
        '```ts',
        'a(); b(); c(); d();',
        '```',
        '',
        '| x. | y. | z. | w. |',
        '',
        '- Item one. Item two.',
        '  Item three. Item four.',
        '- Short.',
        '',
        '**Context.** A. B. **Decision.** C. **Consequence.** D. E.',
      ].join('\n'),
    );

    const found = paragraphsOf(page).map(({ line, sentences }) => [
      line,
      sentences.length,
    ]);

    expect(found).toEqual([
      [6, 4],
      [15, 4],
      [17, 1],
      [19, 2],
      [19, 1],
      [19, 2],
    ]);
  });
});

describe.each(PAGES)('%s', (page) => {
  it('has at most three sentences a paragraph', () => {
    const long = paragraphsOf(join(ROOT, page))
      .filter(({ sentences }) => sentences.length > 3)
      .map(
        ({ line, sentences }) =>
          `${page}:${line}: ${sentences.length} sentences: ${sentences.join(' | ')}`,
      );

    expect(long).toEqual([]);
  });
});
