import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * docs/recipes/postgresql.md says the PostgreSQL tests say they were skipped when
 * DATABASE_URL is not set: a run of vitest with `npm test`'s reporters ends
 * with one line naming them and how to run them; with DATABASE_URL set it
 * has no such line. Two small database test files are run, so no app starts.
 */

const root = join(__dirname, '../..');
const CONFIG = 'test/fixtures/skipped-databases/vitest.config.mts';
const FILES = [
  'test/fixtures/skipped-databases/orders.fixture-spec.ts',
  'test/fixtures/skipped-databases/stock.fixture-spec.ts',
];

/** `vitest run` of FILES in a process of its own, with `DATABASE_URL` as given. */
function runVitest(databaseUrl: string | undefined): string {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(VITEST|DATABASE_URL$)/.test(name),
    ),
  );
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', CONFIG],
    {
      cwd: root,
      env: {
        ...env,
        NO_COLOR: '1',
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      },
      encoding: 'utf8',
    },
  );
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  return run.stdout;
}

describe('a test run', () => {
  it('without DATABASE_URL ends with one line naming the PostgreSQL tests skipped and how to run them', () => {
    const lines = runVitest(undefined)
      .split('\n')
      .filter((line) => /PostgreSQL|DATABASE_URL/.test(line));

    expect(lines).toEqual([
      'PostgreSQL tests skipped (DATABASE_URL is not set) in 2 files: ' +
        `${FILES[0]}, ${FILES[1]}. ` +
        'Run them with DATABASE_URL=postgres://user@host:5432/database npm test.',
    ]);
  }, 120_000);

  it('with DATABASE_URL says nothing of it', () => {
    const output = runVitest('postgres://nobody@127.0.0.1:1/none');

    expect(output).not.toMatch(/PostgreSQL|DATABASE_URL/);
  }, 120_000);
});
