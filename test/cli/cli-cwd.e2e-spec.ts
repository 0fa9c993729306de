import { runCli } from '@nestops/mcp/cli';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv, finished } from '../support/cli-process';
import { CLI } from '../support/sample-process';

/**
 * The sample's command line with `runCli`'s `cwd`: started from `/` (as
 * Claude Desktop starts it), a relative SQLite path opens the same file as
 * from the repository; a `cwd` that is not a directory is a usage error.
 */

const ROOT = join(__dirname, '../..');
const RELATIVE_DB = `var/cwd-test-${process.pid}.sqlite`;

function invoke(cwd: string, ...args: string[]) {
  return finished(
    spawn(
      process.execPath,
      [CLI, 'invoke', ...args, '--authorization', 'ApiKey dev-alice-key'],
      { cwd, env: childEnv({ SQLITE_PATH: RELATIVE_DB }) },
    ),
  );
}

describe("runCli's cwd", () => {
  afterAll(() => {
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(join(ROOT, RELATIVE_DB + suffix), { force: true });
    }
  });

  it('opens the same database started from / as from the repository', async () => {
    const created = await invoke(
      '/',
      'orders.create',
      '{"name":"from the root folder","amount":2}',
    );
    expect(created.code, created.stderr).toBe(0);

    const listed = await invoke(ROOT, 'orders.list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      (JSON.parse(listed.stdout) as { items: { name: string }[] }).items.map(
        (order) => order.name,
      ),
    ).toEqual(['from the root folder']);
  }, 60_000);

  it('is a usage error (64) when it is not a directory, and runs nothing', async () => {
    const written: string[] = [];
    const write = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    try {
      const code = await runCli(class NeverLoaded {}, {
        name: 'notes',
        cwd: join(ROOT, 'package.json'),
        argv: ['operations'],
        exit: false,
      });
      expect(code).toBe(64);
    } finally {
      write.mockRestore();
    }
    expect(written.join('')).toMatch(
      /^notes: runCli's cwd ".*package\.json" is not a directory \(give the app's folder, e\.g\. join\(__dirname, '\.\.'\)\)\n$/,
    );
  });
});
