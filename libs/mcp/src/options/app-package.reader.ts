import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `name` and `version` of the application's own `package.json`. */
export interface AppPackage {
  readonly name?: string;
  readonly version?: string;
}

/**
 * The file of the code that called `fn` (the app's module that calls
 * `McpModule.forRoot()`), or undefined when the stack does not say.
 */
export function callerFileOf(fn: Function): string | undefined {
  const holder: { stack?: unknown } = {};
  const prepare = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, sites) => sites;
  try {
    Error.captureStackTrace(holder, fn);
    const sites = holder.stack;
    return Array.isArray(sites)
      ? pathOf((sites[0] as NodeJS.CallSite | undefined)?.getFileName())
      : undefined;
  } finally {
    Error.prepareStackTrace = prepare;
  }
}

/**
 * The nearest `package.json` with a `name` above `source` (the app's file
 * that configures McpModule), else above the process's main script; never
 * the working directory, which is wherever the process was started from
 * (a stdio client starts it from its own folder).
 */
export function readAppPackage(source: string | undefined): AppPackage {
  for (const start of [pathOf(source), mainScript()]) {
    const found = start === undefined ? undefined : packageAbove(start);
    if (found) {
      return found;
    }
  }
  return {};
}

function mainScript(): string | undefined {
  return pathOf(require.main?.filename ?? process.argv[1]);
}

function packageAbove(file: string): AppPackage | undefined {
  let dir = dirname(realPath(file));
  for (;;) {
    const found = readManifest(join(dir, 'package.json'));
    if (found) {
      return found;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      return undefined;
    }
    dir = parent;
  }
}

/** A manifest's name and version; undefined when it is missing, unreadable or has no name. */
function readManifest(file: string): AppPackage | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const { name, version } = (manifest ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') {
    return undefined;
  }
  return {
    name,
    ...(typeof version === 'string' && version.trim() !== ''
      ? { version }
      : {}),
  };
}

/** An absolute file path, from a path or a `file:` URL; undefined otherwise. */
function pathOf(file: string | null | undefined): string | undefined {
  if (!file) {
    return undefined;
  }
  if (file.startsWith('file:')) {
    try {
      return fileURLToPath(file);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(file) ? file : undefined;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
