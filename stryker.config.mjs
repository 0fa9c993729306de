// Mutation testing of the security- and data-critical files: `npm run
// test:mutation` (see README, "Mutation testing"). Incremental: a rerun tests
// only the mutants whose code or covering tests changed since
// reports/stryker-incremental.json.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.mts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    // The HTTP and stdio transports and what bounds them
    'libs/mcp/src/transports/request-body.reader.ts',
    'libs/mcp/src/transports/origin.policy.ts',
    'libs/mcp/src/transports/outer-authenticator.ts',
    'libs/mcp/src/transports/request-headers.ts',
    'libs/mcp/src/transports/connection-turn.ts',
    'libs/mcp/src/transports/json-rpc.answerer.ts',
    'libs/mcp/src/transports/mcp-http.transport.ts',
    'libs/mcp/src/transports/mcp-stdio.session.ts',
    'libs/mcp/src/shutdown/connection-drain.ts',
    // Input, pipeline, authorization
    'libs/operations/src/invocation/input.sanitizer.ts',
    'libs/operations/src/invocation/operation-pipeline.ts',
    'libs/operations/src/authorization/operation-authorization.guard.ts',
    // The unit of work
    'libs/typeorm/src/transaction.interceptor.ts',
    'libs/typeorm/src/call-queue.ts',
    // The sample's guards
    'src/auth/api-key.guard.ts',
    'src/auth/tenant.guard.ts',
    'src/auth/tenant.ts',
  ],
  buildCommand: 'node scripts/stryker-sandbox.mjs',
  symlinkNodeModules: false,
  ignorePatterns: ['dist', '/bench', '/var', '/coverage', '/reports'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  concurrency: 1,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  cleanTempDir: 'always',
};
