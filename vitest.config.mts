import swc from 'unplugin-swc';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

const libs = fileURLToPath(new URL('./libs/', import.meta.url));

/** End-to-end files that need a module graph of their own. */
const OWN_PROCESS = ['test/telemetry/**/*.e2e-spec.ts'];

/** What every test run shares: the libraries read from their sources. */
export const shared = {
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    alias: [
      {
        find: /^@nestops\/(operations|mcp|typeorm)$/,
        replacement: `${libs}$1/src/index.ts`,
      },
      {
        find: /^@nestops\/(operations|mcp)\/(testing|cli|internal)$/,
        replacement: `${libs}$1/src/$2/index.ts`,
      },
    ],
  },
} satisfies ViteUserConfig;

export default defineConfig({
  test: {
    globals: true,
    // The default output, then a line naming the PostgreSQL tests skipped.
    reporters: ['default', './test/support/skipped-databases.reporter.ts'],
    // One more file at a time than there are cores (vitest's default is one
    // fewer): most end-to-end files spend their time waiting for the apps
    // and command lines they spawn, so one worker less left a core idle.
    maxWorkers: availableParallelism() + 1,
    // oidc-provider's notices about the sample authorization server's
    // runtime and in-memory adapter: expected in tests, never a finding.
    onConsoleLog: (log) => !/^oidc-provider (WARNING|NOTICE): /.test(log),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        ...shared,
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/**/*.spec.ts'],
          // The unit specs share a worker's loaded modules (Nest, the
          // libraries): a fresh module graph per file tripled their time.
          isolate: false,
        },
      },
      {
        ...shared,
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e-spec.ts'],
          // The built packages and the benchmark harness: `npm run
          // test:packages` builds them; telemetry has a process of its own.
          exclude: ['test/packaging/**', 'test/bench/**', ...OWN_PROCESS],
          // What the apps and command lines these tests spawn load.
          globalSetup: ['test/support/global-setup.ts'],
          // The files share a worker's loaded modules, as the unit specs do:
          // a fresh module graph per file cost 160 s of a 220 s run. DTO
          // class names are unique across test/ (schemas are keyed by name).
          isolate: false,
        },
      },
      {
        ...shared,
        extends: true,
        test: {
          name: 'e2e-own-process',
          // OpenTelemetry's instrumentations patch TypeORM and http as they
          // load: these files must load them first, in a fresh worker.
          include: OWN_PROCESS,
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
