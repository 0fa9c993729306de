import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The pages of the documentation site: every `docs/**\/*.md` but VitePress's own folder. */
const DOC_PAGES = filesUnder('docs').filter(
  (path) => path.endsWith('.md') && !path.split('/').includes('.vitepress'),
);

/** The READMEs (the root one, and each package's, published to npm) and the pages. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(root, 'libs'))
    .map((lib) => `libs/${lib}/README.md`)
    .filter((path) => existsSync(join(root, path))),
  ...DOC_PAGES,
];

/**
 * The pages show the quick-start app (which the consumer test installs the
 * packed libraries into), the client configurations (which
 * client-configs.e2e-spec and sample-stdio.e2e-spec run), the sample's
 * command line and the recipes' code (which the recipes' tests in
 * test/pipeline import) verbatim, so what they show is what is tested.
 */
const VERBATIM = [
  ['docs/get-started/quick-start.md', 'examples/quick-start/src'],
  ['docs/get-started/connect-a-client.md', 'examples/clients'],
  ['docs/guides/stdio-and-cli.md', 'examples/stdio'],
  ['docs/guides/stdio-and-cli.md', 'src/cli.ts'],
  ['docs/recipes/nestjs-jwt.md', 'test/recipes/nestjs-jwt'],
  ['docs/recipes/casl.md', 'test/recipes/casl'],
] as const;

describe.each(VERBATIM)('%s', (page, dir) => {
  const text = read(page);

  const files = statSync(join(root, dir)).isDirectory()
    ? filesUnder(dir)
    : [dir];

  it.each(files)('shows %s verbatim', (file) => {
    expect(text.includes(read(file)), `${page} lacks ${file}`).toBe(true);
  });
});

describe('the documentation', () => {
  it('has its pages', () => {
    expect(DOC_PAGES).toEqual(
      expect.arrayContaining([
        'docs/get-started/quick-start.md',
        'docs/reference/mcp-module-options.md',
        'docs/design/index.md',
      ]),
    );
  });
});

describe.each(DOCUMENTS)('%s stands alone', (document) => {
  const text = read(document);
  const links = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map(
    (match) => match[1],
  );

  it('links only to files of the repository and pages of the site that exist', () => {
    for (const link of links) {
      expect(link, 'no links out of the repository').not.toMatch(/^\w+:/);
      if (link.startsWith('/')) {
        // A site link, VitePress-style: /guides/oauth, /design/.
        const path = link.replace(/^\/|\/$/g, '').replace(/\.html$/, '');
        const page = [`docs/${path}.md`, `docs/${path}/index.md`].find(
          (candidate) => existsSync(join(root, candidate)),
        );
        expect(page, `${document} links to the page ${link}`).toBeDefined();
      } else {
        expect(
          existsSync(join(root, dirname(document), link)),
          `${document} links to ${link}`,
        ).toBe(true);
      }
    }
  });

  it('names only test files that exist', () => {
    const named = text.match(/\btest\/[\w./-]+\.(?:e2e-)?spec\.ts\b/g) ?? [];

    for (const file of named) {
      expect(existsSync(join(root, file)), `${document} names ${file}`).toBe(
        true,
      );
    }
  });

  it('does not point to documents outside the repository', () => {
    expect(text).not.toMatch(/SPEC\.md|DESIGN\.md|STYLE\.md|seed\//);
  });
});

describe('a README', () => {
  it.each([
    ['README.md', 150],
    ['libs/mcp/README.md', 80],
    ['libs/operations/README.md', 80],
    ['libs/typeorm/README.md', 80],
  ] as const)('%s stays under %i lines', (readme, limit) => {
    expect(read(readme).trimEnd().split('\n').length).toBeLessThan(limit);
  });
});
