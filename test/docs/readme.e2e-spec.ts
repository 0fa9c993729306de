import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(__dirname, '../..');
const READMES = [
  'README.md',
  'libs/mcp/README.md',
  'libs/operations/README.md',
  'libs/typeorm/README.md',
];

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const read = (path: string) => readFileSync(join(root, path), 'utf8');

/**
 * The READMEs show the quick-start app (which the consumer test installs the
 * packed libraries into) and the client configurations (which
 * client-configs.e2e-spec runs) verbatim, so what they show is what is tested.
 */
describe.each(['README.md', 'libs/mcp/README.md'])('%s', (readme) => {
  const text = read(readme);

  it.each(filesUnder('examples/quick-start/src'))(
    'shows the quick-start file %s verbatim',
    (file) => {
      expect(text.includes(read(file)), `${readme} lacks ${file}`).toBe(true);
    },
  );

  it.each(filesUnder('examples/clients'))(
    'shows the client configuration %s verbatim',
    (file) => {
      expect(text.includes(read(file)), `${readme} lacks ${file}`).toBe(true);
    },
  );
});

describe('README.md', () => {
  const text = read('README.md');

  it.each(filesUnder('examples/stdio'))(
    'shows the stdio client configuration %s verbatim',
    (file) => {
      expect(text.includes(read(file)), `README.md lacks ${file}`).toBe(true);
    },
  );
});

describe.each(READMES)('%s stands alone', (readme) => {
  const text = read(readme);

  it('links only to files of the repository that exist', () => {
    const links = [...text.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map(
      (match) => match[1],
    );

    for (const link of links) {
      expect(link, 'no links out of the repository').not.toMatch(/^\w+:/);
      expect(
        existsSync(join(root, dirname(readme), link)),
        `${readme} links to ${link}`,
      ).toBe(true);
    }
  });

  it('does not point to documents outside the repository', () => {
    expect(text).not.toMatch(/SPEC\.md|DESIGN\.md|STYLE\.md|seed\//);
  });
});
