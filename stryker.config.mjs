// Mutation testing of the security- and data-critical files: `npm run
// test:mutation` (see README, "Mutation testing"). Incremental: a rerun tests
// only the mutants whose code or covering tests changed since
// reports/stryker-incremental.json.
import { MUTATION_GROUPS, mutationGroup } from './scripts/mutation-groups.mjs';

// One group (MUTATION_GROUP=http|stdio|input|uow|sample|oauth) or, without it, all.
const group = mutationGroup();

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Equivalent mutants, each with its reason (scripts/stryker-equivalent-mutants.mjs).
  plugins: ['@stryker-mutator/*', './scripts/stryker-equivalent-mutants.mjs'],
  ignorers: ['equivalent-mutants'],
  vitest: { configFile: 'vitest.stryker.config.mts', related: false },
  coverageAnalysis: 'perTest',
  mutate:
    group?.mutate ?? Object.values(MUTATION_GROUPS).flatMap((g) => g.mutate),
  ignorePatterns: ['dist', '/bench', '/var', '/coverage', '/reports'],
  incremental: true,
  incrementalFile: `reports/stryker-incremental${group ? `-${process.env.MUTATION_GROUP}` : ''}.json`,
  concurrency: 1,
  // Past the tests' own time (which Stryker measures as 0 for files that boot
  // their apps in beforeAll): long enough that a slow run on a loaded machine
  // is not taken for a hang.
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: {
    fileName: `reports/mutation${group ? `-${process.env.MUTATION_GROUP}` : ''}/index.html`,
  },
  jsonReporter: {
    fileName: `reports/mutation${group ? `-${process.env.MUTATION_GROUP}` : ''}/mutation.json`,
  },
  thresholds: { high: 95, low: 90, break: null },
  cleanTempDir: 'always',
};
