/**
 * The version of an installed package, read from its `package.json` (as
 * `load` returns it), or `'(version unknown)'` when that cannot be read.
 */
export function installedVersion(load: () => unknown): string {
  try {
    const version = (load() as { version?: unknown }).version;
    return typeof version === 'string' ? version : '(version unknown)';
  } catch {
    return '(version unknown)';
  }
}

/**
 * A module that is no public entry point of its package, as `load`
 * (a `require` of its path) returns it, or undefined when the installed
 * release has no such file or no longer lets it be loaded; the adapter's
 * assertion then names it. Any other failure is thrown.
 */
export function loadPrivateModule<T>(load: () => T): T | undefined {
  try {
    return load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (
      code === 'MODULE_NOT_FOUND' ||
      code === 'ERR_PACKAGE_PATH_NOT_EXPORTED'
    ) {
      return undefined;
    }
    throw error;
  }
}

/**
 * The names of `checks` whose value is false: what a package lacks of the
 * internals an adapter relies on.
 */
export function missingOf(checks: Readonly<Record<string, boolean>>): string[] {
  return Object.entries(checks)
    .filter(([, present]) => !present)
    .map(([name]) => name);
}

/** `<owner>.<name>` for each of `names` that is not a function of `object`. */
export function missingMethods(
  owner: string,
  object: object | undefined,
  names: readonly string[],
): string[] {
  return names
    .filter(
      (name) =>
        typeof (object as Record<string, unknown> | undefined)?.[name] !==
        'function',
    )
    .map((name) => `${owner}.${name}`);
}
