import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globals: true,
    include: ['libs/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The default output, then a line naming the PostgreSQL tests skipped.
    reporters: ['default', './test/support/skipped-databases.reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The libraries are tested as apps load them: built, through their
    // package exports, by Node itself (the ES module door re-exports the
    // CommonJS build, which Vite's module runner cannot evaluate).
    server: { deps: { external: [/\/libs\/[^/]+\/dist\//] } },
  },
});
