import { isNativeError } from 'node:util/types';

/**
 * An optional peer package, as `load` (a `require` of it) gives it, or
 * undefined where it is not installed. A package that is installed but
 * fails to load (one of its own dependencies missing, say) is an error,
 * not an absence.
 */
export function loadOptionalPeer<T>(
  name: string,
  load: () => unknown,
): T | undefined {
  try {
    return load() as T;
  } catch (error) {
    if (isMissingPackage(error, name)) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Whether `error` is Node's "Cannot find module" for `name` itself (or the
 * same error from a test runner's own `require`, such as Jest's: an error of
 * another realm, so not `instanceof` this realm's `Error`).
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (!isNativeError(error)) {
    return false;
  }
  const [firstLine] = error.message.split('\n');
  return (
    (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
    firstLine.includes(`'${name}'`)
  );
}
