import { join } from 'node:path';
import {
  checkSnippets,
  readmeSnippets,
  type SnippetDiagnostics,
} from '../support/readme-snippets';
import { pagesUnder } from './doc-pages';

/**
 * Every ```ts block of the libraries' READMEs and of the documentation's
 * pages (docs/, where the READMEs' sections now live) compiles (strict) against the
 * built packages. The blocks of one README are files of the quick-start app
 * (examples/quick-start), compiled together on top of its own files: a
 * block whose first line names a file (`// src/orders/order.entity.ts`) is
 * that file; a block that shows a quick-start file verbatim is that file;
 * any other block is a file of its own in `src/`. So a block imports what
 * it uses: from the packages, or from the app's files by relative path. A
 * block that shows a file of the sample app (`src/`) verbatim is compiled
 * with the sample, and one after a `<!-- not compiled: why -->` line is left
 * out.
 */
const ROOT = join(__dirname, '../..');

const READMES = [
  'libs/operations/README.md',
  'libs/mcp/README.md',
  'libs/typeorm/README.md',
  ...pagesUnder(join(ROOT, 'docs')).filter(
    (page) => readmeSnippets(page).length > 0,
  ),
];

describe('the check of a block', () => {
  it('is strict, and names the block and its line', () => {
    const checked = checkSnippets([
      {
        readme: 'synthetic',
        number: 1,
        line: 1,
        code: "import { Injectable } from '@nestjs/common';\n\nexport const twice = (x) => x * 2;\n",
        path: 'src/synthetic.ts',
      },
    ]);

    expect(checked.bySnippet.get(1)).toEqual([
      "snippet line 3: TS7006 Parameter 'x' implicitly has an 'any' type.",
    ]);
    expect(checked.elsewhere).toEqual([]);
  }, 120_000);
});

describe.each(READMES)('the TypeScript blocks of %s', (readme) => {
  const snippets = readmeSnippets(readme);
  let checked: SnippetDiagnostics;

  beforeAll(() => {
    checked = checkSnippets(snippets);
  }, 120_000);

  it('are there, one file each', () => {
    const paths = snippets.map((snippet) => snippet.path);

    expect(snippets.length).toBeGreaterThan(0);
    expect(new Set(paths).size, paths.join(', ')).toBe(paths.length);
  });

  it.each(snippets.map((snippet) => [snippet.number, snippet] as const))(
    'block %i compiles',
    (_, snippet) => {
      expect(
        checked.bySnippet.get(snippet.number),
        `${readme} snippet ${snippet.number} (README line ${snippet.line}, ${snippet.path})`,
      ).toEqual([]);
    },
  );

  it('leave the files they build on compiling', () => {
    expect(checked.elsewhere).toEqual([]);
  });
});
