import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

/**
 * The built packages, as apps install and load them (their files, types
 * and doors): `npm run test:packages` builds them first.
 */
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    globals: true,
    include: ['test/packaging/**/*.e2e-spec.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The libraries from their dist/, loaded by Node itself (the ES module
    // door re-exports the CommonJS build, which Vite's runner cannot run).
    server: { deps: { external: [/\/libs\/[^/]+\/dist\//] } },
  },
});
