import swc from 'unplugin-swc';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globals: true,
    include: ['libs/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The default output, then a line naming the PostgreSQL tests skipped.
    reporters: ['default', './test/support/skipped-databases.reporter.ts'],
    // One more file at a time than there are cores (vitest's default is one
    // fewer): most end-to-end files spend their time waiting for the apps
    // and command lines they spawn, so on a 2-core machine one worker left
    // a core idle: on this 2-core machine, under a load of 6 to 9 from other
    // work, the suite took 653 s with one worker and 356 s with three.
    maxWorkers: availableParallelism() + 1,
    // oidc-provider's notices about the sample authorization server's
    // runtime and in-memory adapter: expected in tests, never a finding.
    onConsoleLog: (log) => !/^oidc-provider (WARNING|NOTICE): /.test(log),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The libraries are tested as apps load them: built, through their
    // package exports, by Node itself (the ES module door re-exports the
    // CommonJS build, which Vite's module runner cannot evaluate).
    server: { deps: { external: [/\/libs\/[^/]+\/dist\//] } },
  },
});
