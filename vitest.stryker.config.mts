import { configDefaults, defineConfig } from 'vitest/config';
import { shared } from './vitest.config.mjs';
import { mutationGroup } from './scripts/mutation-groups.mjs';

const group = mutationGroup();

/**
 * The tests `npm run test:mutation` runs against each mutant: the unit specs
 * and the end-to-end tests that run the app in the test's own process (a
 * mutant is only seen where its code runs, and Stryker only counts coverage
 * there). Tests that spawn the sample or the CLI, pack the libraries,
 * compile the READMEs or run the benchmarks are left to `npm test`.
 */
const config = defineConfig({
  ...shared,
  test: {
    globals: true,
    include: ['libs/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    setupFiles: ['test/support/stryker-hook-coverage.ts'],
    exclude: [
      ...configDefaults.exclude,
      // Stryker's vitest runner runs the tests in worker threads, where
      // process.chdir() throws: this spec's working-directory test would
      // fail under every mutant, "killing" each one.
      'libs/mcp/src/options/app-package.reader.spec.ts',
      'test/sample/bench-smoke.e2e-spec.ts',
      'test/cli/cli.e2e-spec.ts',
      'test/stdio/sample-stdio.e2e-spec.ts',
      'test/stdio/stdio-contract.e2e-spec.ts',
      'test/cli/cli-setup.e2e-spec.ts',
      'test/cli/client-configs.e2e-spec.ts',
      'test/packaging/optional-i18n.e2e-spec.ts',
      'test/packaging/packages.e2e-spec.ts',
      'test/docs/readme.e2e-spec.ts',
      'test/docs/readme-snippets.e2e-spec.ts',
      'test/lifecycle/shutdown.e2e-spec.ts',
      'test/sample/skipped-databases.e2e-spec.ts',
      'test/pipeline/validation-clauses.e2e-spec.ts',
    ],
  },
});

// MUTATION_GROUP narrows the tests to its group's; MUTATION_TESTS (globs,
// comma-separated) narrows them further, for one file's run.
if (group) {
  config.test!.include = [...group.tests];
}
const narrowed = process.env.MUTATION_TESTS?.split(',').filter(Boolean);
if (narrowed?.length) {
  config.test!.include = narrowed;
}

export default config;
