#!/usr/bin/env node
// Writes the ES module face of a library package after `tsc -b` has built
// its CommonJS implementation into dist/cjs.
//
// A package is one implementation (CommonJS, so Nest 11 apps and Jest load it
// with `require`) with two doors. For every entry point of the package's
// `exports` map, dist/esm/<entry>.js imports the CommonJS module and
// re-exports its names, so `import` and `require` reach the same classes at
// run time (no dual-package hazard: one McpModule, one OperationRegistry).
// The declarations are copied from dist/cjs into dist/esm, beside a
// package.json of `"type": "module"`: there they are ES module declarations
// and import Nest as an ES module, as Nest 12 apps do (no TS1479/TS1541 under
// `module: node16` or `nodenext`, with `skipLibCheck` false).
//
// Usage: node scripts/esm-entries.mjs <package dir> [<package dir> ...]
import {
  cpSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

for (const dir of process.argv.slice(2).map((d) => resolve(d))) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const cjsDir = join(dir, 'dist/cjs');
  const esmDir = join(dir, 'dist/esm');
  rmSync(esmDir, { recursive: true, force: true });
  cpSync(cjsDir, esmDir, {
    recursive: true,
    filter: (source) =>
      statSync(source).isDirectory() || /\.d\.ts(\.map)?$/.test(source),
  });
  writeFileSync(join(esmDir, 'package.json'), '{ "type": "module" }\n');

  const load = createRequire(join(dir, 'package.json'));
  for (const [entry, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const esmFile = join(dir, target.import.default);
    const cjsFile = join(dir, target.require.default);
    const names = Object.keys(load(cjsFile)).filter(
      (name) => name !== '__esModule' && name !== 'default',
    );
    let from = relative(dirname(esmFile), cjsFile).replaceAll('\\', '/');
    if (!from.startsWith('.')) from = `./${from}`;
    mkdirSync(dirname(esmFile), { recursive: true });
    writeFileSync(
      esmFile,
      `// The ES module door of ${manifest.name}${entry === '.' ? '' : entry.slice(1)}: the CommonJS implementation's own exports.\n` +
        `import cjs from '${from}';\n\n` +
        `export const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = cjs;\n`,
    );
  }
}
