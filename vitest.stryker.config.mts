import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.mjs';
import { mutationGroup } from './scripts/mutation-groups.mjs';

const group = mutationGroup();

/**
 * The tests `npm run test:mutation` runs against each mutant: the unit specs
 * and the end-to-end tests that run the app in the test's own process (a
 * mutant is only seen where its code runs, and Stryker only counts coverage
 * there). Tests that spawn the sample or the CLI, pack the libraries,
 * compile the READMEs or run the benchmarks are left to `npm test`.
 */
const config = mergeConfig(
  base,
  defineConfig({
    test: {
      globalSetup: [],
      setupFiles: ['test/support/stryker-hook-coverage.ts'],
      exclude: [
        ...configDefaults.exclude,
        // Stryker's vitest runner runs the tests in worker threads, where
        // process.chdir() throws: this spec's working-directory test would
        // fail under every mutant, "killing" each one.
        'libs/mcp/src/options/app-package.reader.spec.ts',
        'test/bench-smoke.e2e-spec.ts',
        'test/cli.e2e-spec.ts',
        'test/cli-setup.e2e-spec.ts',
        'test/client-configs.e2e-spec.ts',
        'test/optional-i18n.e2e-spec.ts',
        'test/packages.e2e-spec.ts',
        'test/readme.e2e-spec.ts',
        'test/readme-snippets.e2e-spec.ts',
        'test/shutdown.e2e-spec.ts',
        'test/skipped-databases.e2e-spec.ts',
        'test/validation-clauses.e2e-spec.ts',
      ],
    },
  }),
);

// mergeConfig joins arrays; these replace the base's: no global setup (it
// builds the sample for the tests that spawn it, which do not run here), and
// MUTATION_GROUP narrows the tests to its group's; MUTATION_TESTS (globs,
// comma-separated) narrows them further, for one file's run.
config.test.globalSetup = [];
if (group) {
  config.test.include = group.tests;
}
const narrowed = process.env.MUTATION_TESTS?.split(',').filter(Boolean);
if (narrowed?.length) {
  config.test.include = narrowed;
}

export default config;
