import { afterAll, beforeAll, inject } from 'vitest';

/**
 * For `npm run test:mutation` only (vitest.stryker.config.mts). Stryker
 * counts a mutant as covered by a test only when it runs between that
 * test's beforeEach and afterEach; code run by a `beforeAll` or `afterAll`
 * (booting and closing the app under test: most of this repository's code)
 * would be "static", and each static mutant is run against every test.
 * Here such code is counted as covered by every test of the file, since
 * any of them runs those hooks; only code run while a file is imported stays
 * static.
 */

type Coverage = Record<string, number>;
interface StrykerNamespace {
  currentTestId?: string;
  mutantCoverage?: { static: Coverage; perTest: Record<string, Coverage> };
}
interface Task {
  readonly type: string;
  readonly name: string;
  readonly suite?: Task;
  readonly file?: { readonly filepath: string };
  readonly tasks?: readonly Task[];
}

const HOOKS = '#hooks';

// Stryker's own setup file (first in setupFiles) has provided these.
const mode = (inject as (key: string) => unknown)('mode');
const namespaceName = (inject as (key: string) => unknown)('globalNamespace');

if (mode === 'dry-run' && typeof namespaceName === 'string') {
  const global = globalThis as unknown as Record<string, StrykerNamespace>;
  const ns = (global[namespaceName] ??= {});
  let current: string | undefined;
  let file: string | undefined;
  Object.defineProperty(ns, 'currentTestId', {
    configurable: true,
    get: () => current ?? (file === undefined ? undefined : file + HOOKS),
    set: (id: string | undefined) => {
      current = id;
    },
  });

  beforeAll((_context: unknown, suite: Task) => {
    file = suite.file?.filepath ?? 'unknown.js';
  });

  // Runs after the test file's own afterAll hooks (they are stacked).
  afterAll((_context: unknown, suite: Task) => {
    const perTest = ns.mutantCoverage?.perTest;
    const hooks = file === undefined ? undefined : perTest?.[file + HOOKS];
    if (perTest && hooks && file !== undefined) {
      for (const test of testsOf(suite)) {
        const coverage = (perTest[rawTestId(test)] ??= {});
        for (const [mutant, hits] of Object.entries(hooks)) {
          coverage[mutant] = (coverage[mutant] ?? 0) + hits;
        }
      }
      delete perTest[file + HOOKS];
    }
    file = undefined;
  });
}

function testsOf(task: Task): Task[] {
  return task.type === 'test'
    ? [task]
    : (task.tasks ?? []).flatMap((child) => testsOf(child));
}

/** As Stryker's vitest runner names a test. */
function rawTestId(test: Task): string {
  const parts = [test.name];
  for (let suite = test.suite; suite; suite = suite.suite) {
    parts.unshift(suite.name);
  }
  return `${test.file?.filepath ?? 'unknown.js'}#${parts.join(' ').trim()}`;
}
