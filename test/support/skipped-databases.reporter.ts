import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { NEEDS_DATABASE_URL } from './databases';

/**
 * After the summary, one line naming the PostgreSQL tests that were skipped
 * (each `describe` of a database that did not run leaves one test named
 * `NEEDS_DATABASE_URL`) and how to run them. Nothing when none was.
 */
export default class SkippedDatabasesReporter implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const line = skippedDatabasesLine(testModules);
    if (line !== undefined) {
      this.vitest?.logger.log(line);
    }
  }
}

/** The line to print, or undefined when no PostgreSQL test was skipped. */
function skippedDatabasesLine(
  testModules: ReadonlyArray<TestModule>,
): string | undefined {
  const files = testModules
    .filter((module) =>
      [...module.children.allTests('skipped')].some(
        (test) => test.name === NEEDS_DATABASE_URL,
      ),
    )
    .map((module) => module.relativeModuleId)
    .sort();
  if (files.length === 0) {
    return undefined;
  }
  return (
    `PostgreSQL tests skipped (DATABASE_URL is not set) in ${files.length} ` +
    `${files.length === 1 ? 'file' : 'files'}: ${files.join(', ')}. ` +
    'Run them with DATABASE_URL=postgres://user@host:5432/database npm test.'
  );
}
