import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The README says the PostgreSQL tests say they were skipped when
 * DATABASE_URL is not set: a run of vitest, as `npm test` runs it, ends
 * with one line naming them and how to run them; with DATABASE_URL set it
 * has no such line. Only the placeholder tests are selected (`-t`), so no
 * app starts.
 */

const root = join(__dirname, '../..');
const FILES = [
  'test/unit-of-work/unit-of-work.e2e-spec.ts',
  'test/lifecycle/shutdown.e2e-spec.ts',
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
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...FILES,
      '-t',
      'needs DATABASE_URL',
      '--passWithNoTests',
    ],
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
        `${FILES[1]}, ${FILES[0]}. ` +
        'Run them with DATABASE_URL=postgres://user@host:5432/database npm test.',
    ]);
  }, 120_000);

  it('with DATABASE_URL says nothing of it', () => {
    const output = runVitest('postgres://nobody@127.0.0.1:1/none');

    expect(output).not.toMatch(/PostgreSQL|DATABASE_URL/);
  }, 120_000);
});
