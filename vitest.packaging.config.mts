import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.mjs';

/**
 * The built packages, as apps install and load them (their files, types
 * and doors), and the benchmark harness that runs them: `npm run
 * test:packages` builds them first.
 */
export default defineConfig({
  plugins: shared.plugins,
  test: {
    globals: true,
    include: ['test/packaging/**/*.e2e-spec.ts', 'test/bench/**/*.e2e-spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The libraries from their dist/, loaded by Node itself (the ES module
    // door re-exports the CommonJS build, which Vite's runner cannot run).
    server: { deps: { external: [/\/libs\/[^/]+\/dist\//] } },
  },
});
