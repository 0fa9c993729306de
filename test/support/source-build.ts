import { type Options, transformFileSync } from '@swc/core';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const LIBRARIES = ['operations', 'mcp', 'typeorm'];

/**
 * What `tsc` makes of a file under `tsconfig.base.json`, without its type
 * check: CommonJS with decorator metadata, dynamic `import()` kept, and
 * the names an ES module importer reads (`exportInteropAnnotation`).
 */
const SWC: Options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2023',
    keepClassNames: true,
    transform: { legacyDecorator: true, decoratorMetadata: true },
  },
  module: {
    type: 'commonjs',
    ignoreDynamic: true,
    exportInteropAnnotation: true,
  },
  sourceMaps: 'inline',
  swcrc: false,
  configFile: false,
};

/**
 * Brings what spawned processes load up to date with the sources, the way
 * the sample's `nest build` and the libraries' `tsc -b` lay it out, in a
 * second or two: each library's `dist/cjs` (and its ES module door) and the
 * sample's `dist/src`. Only files older than their source are written.
 * Tests in this process read the sources themselves (vitest.config.mts);
 * the type check is `npm run typecheck`'s, and the packages as published
 * are the consumer test's.
 */
export function buildForSpawnedProcesses(): void {
  const changedLibraries = LIBRARIES.filter(
    (name) =>
      transpileTree(
        join(ROOT, 'libs', name, 'src'),
        join(ROOT, 'libs', name, 'dist/cjs'),
      ) || !existsSync(join(ROOT, 'libs', name, 'dist/esm/package.json')),
  );
  if (changedLibraries.length > 0) {
    const doors = spawnSync(
      process.execPath,
      [
        join(ROOT, 'scripts/esm-entries.mjs'),
        ...changedLibraries.map((name) => join(ROOT, 'libs', name)),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (doors.status !== 0) {
      throw new Error(`The ES module doors failed:\n${doors.stderr}`);
    }
  }
  transpileTree(join(ROOT, 'src'), join(ROOT, 'dist/src'));
  // The sample's message catalogue, as nest-cli.json's assets have it.
  cpSync(join(ROOT, 'src/i18n'), join(ROOT, 'dist/src/i18n'), {
    recursive: true,
  });
}

/** Transpiles each source of `from` newer than its output; whether any was. */
function transpileTree(from: string, to: string): boolean {
  let wrote = false;
  for (const source of sourcesOf(from)) {
    const output = join(to, relative(from, source)).replace(/\.ts$/, '.js');
    if (
      existsSync(output) &&
      statSync(output).mtimeMs >= statSync(source).mtimeMs
    ) {
      continue;
    }
    const { code } = transformFileSync(source, {
      ...SWC,
      filename: source,
    });
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, code);
    wrote = true;
  }
  return wrote;
}

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourcesOf(path);
    }
    return /(?<!\.d|\.spec|\.spec-support)\.ts$/.test(entry.name) ? [path] : [];
  });
}
