// An earlier revision of this repository, checked out beside it for a
// benchmark to run its build against this one's (bench/baseline.mjs,
// bench/telemetry.mjs), and the median the two report.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkModules } from '../../scripts/linked-modules.mjs';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** git in this checkout; its output, trimmed. */
export const git = (...args) =>
  execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/**
 * A temporary worktree of `revision` whose libraries are built and
 * resolvable (its node_modules links this checkout's packages, but
 * @nestops/* to its own libs/): its commit, its directory, and `remove()`.
 */
export function checkOutRevision(revision, log = console.error) {
  const commit = git('rev-parse', '--verify', `${revision}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), 'nestops-baseline-'));
  git('worktree', 'add', '--detach', dir, commit);
  linkModules(ROOT, dir);
  log(`baseline ${commit.slice(0, 7)}: building its libraries in ${dir}`);
  execFileSync('npm', ['run', '--silent', 'build:libs'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    commit,
    dir,
    remove() {
      git('worktree', 'remove', '--force', dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The median of `values`. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
