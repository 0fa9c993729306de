#!/usr/bin/env node
// The API report of every entry point of the library packages: what each
// one exports, as API Extractor reads it from the built declarations, in
// libs/<package>/api/<name>.api.md (one report per entry point of the
// package's `exports` map but `./internal`; dist/esm holds byte copies of the dist/cjs
// declarations read here).
//
//   node scripts/api-report.mjs --check    fail when a report differs (CI)
//   node scripts/api-report.mjs --update   rewrite the reports
//
// Both read the built libraries; `npm run api:check` and `npm run
// api:update` build them first. Both also fail on an exported item without
// a doc comment (ae-undocumented) and on a type that a public signature
// uses but no entry point exports (ae-forgotten-export), unless the main
// entry point of the package exports it under that name (for a `testing`
// entry point), or it is one of ACCEPTED below.
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const PACKAGES = ['libs/operations', 'libs/mcp', 'libs/typeorm'];

/** Unexported names that public declarations may name, and why. */
const ACCEPTED = {
  '@nestops/mcp': {
    // McpModule's base, made by Nest's ConfigurableModuleBuilder (as the
    // modules of @nestjs/cache-manager are); McpModule overrides its static
    // forRoot and forRootAsync with its own signatures.
    ConfigurableModuleClass: "McpModule's ConfigurableModuleBuilder base",
  },
};

const mode = process.argv[2];
if (mode !== '--check' && mode !== '--update') {
  console.error('Usage: node scripts/api-report.mjs --check | --update');
  process.exit(2);
}

const manifests = new Map(
  PACKAGES.map((dir) => {
    const manifest = JSON.parse(
      readFileSync(join(root, dir, 'package.json'), 'utf8'),
    );
    return [manifest.name, { dir: join(root, dir), manifest }];
  }),
);

/** The names the main entry point of `name` exports (values and types). */
function mainExports(name) {
  const { dir, manifest } = manifests.get(name);
  const file = join(dir, manifest.exports['.'].require.types);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  return new Set(checker.getExportsOfModule(module).map((s) => s.name));
}

/**
 * Names an entry point of `name` may use without exporting them itself: a
 * `testing` entry point, those of its package's main entry point. (Types of
 * another package are imported from it by name, so never reported.)
 */
function importableElsewhere(name, entry) {
  return entry === '.' ? new Set() : mainExports(name);
}

/** API Extractor's settings for one entry point, built here rather than in a JSON file per entry. */
function configOf(dir, manifest, entry, types) {
  const unscoped = manifest.name.replace(/^@[^/]+\//, '');
  return {
    projectFolder: dir,
    mainEntryPointFilePath: join(dir, types),
    compiler: { tsconfigFilePath: join(dir, 'tsconfig.build.json') },
    apiReport: {
      enabled: true,
      reportFileName:
        entry === '.' ? unscoped : `${unscoped}-${entry.slice(2)}`,
      reportFolder: join(dir, 'api'),
      reportTempFolder: join(dir, 'dist/api'),
      // The declarations a signature names without exporting them (see
      // above) are in the report too, so a change to them shows as well.
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: 'error' } },
      extractorMessageReporting: {
        default: { logLevel: 'error' },
        'ae-forgotten-export': { logLevel: 'error', addToApiReportFile: false },
        'ae-undocumented': { logLevel: 'error', addToApiReportFile: false },
        // The packages mark their API with @publicApi, not release tags.
        'ae-missing-release-tag': { logLevel: 'none' },
      },
      // @publicApi is not a TSDoc tag; the doc comments are not TSDoc-checked.
      tsdocMessageReporting: { default: { logLevel: 'none' } },
    },
  };
}

let failed = 0;
for (const [name, { dir, manifest }] of manifests) {
  for (const [entry, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    // `./internal` is internal by contract (its package doc says @internal):
    // what the packages give each other, with no report and no promise.
    if (entry === './internal') continue;
    const elsewhere = importableElsewhere(name, entry);
    const accepted = ACCEPTED[name] ?? {};
    const config = ExtractorConfig.prepare({
      configObject: configOf(dir, manifest, entry, target.require.types),
      configObjectFullPath: undefined,
      packageJsonFullPath: join(dir, 'package.json'),
    });
    const result = Extractor.invoke(config, {
      localBuild: mode === '--update',
      printApiReportDiff: mode === '--check',
      messageCallback(message) {
        if (message.messageId === 'console-preamble') {
          message.logLevel = 'none'; // the TypeScript it bundles (6.0.3, as ours)
        }
        if (message.messageId !== 'ae-forgotten-export') return;
        const symbol = /The symbol "([^"]+)"/.exec(message.text)?.[1];
        if (elsewhere.has(symbol) || Object.hasOwn(accepted, symbol)) {
          message.logLevel = 'none';
        } else {
          message.text = `${message.text}: export it as a type from ${name}${entry.slice(1)}'s index.ts, or change the signature to use an exported type`;
        }
      },
    });
    const report = relative(root, config.reportFilePath);
    if (result.succeeded) {
      console.log(
        `${name}${entry.slice(1)}: ${report} ${mode === '--check' ? 'matches' : result.apiReportChanged ? 'updated' : 'unchanged'}`,
      );
    } else {
      failed += 1;
      const problems = [
        mode === '--check' && result.apiReportChanged
          ? `the public API differs from ${report}`
          : '',
        result.errorCount > 0 ? `${result.errorCount} error(s) above` : '',
      ];
      console.error(
        `${name}${entry.slice(1)}: ${problems.filter(Boolean).join('; ')}`,
      );
    }
  }
}
if (failed > 0) {
  console.error(
    `\nnpm run api:${mode.slice(2)}: ${failed} entry point(s) failed (above). A change to the public API is meant? ` +
      'Then run `npm run api:update` and commit the reports with it.',
  );
  process.exit(1);
}
