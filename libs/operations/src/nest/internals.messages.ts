/**
 * The startup failure of an adapter whose package no longer has what it
 * relies on: names the package, its installed version, what the library
 * needs it for and each internal that is missing.
 */
export const missingInternalsMessage = (
  packages: string,
  purpose: string,
  missing: readonly string[],
): string =>
  `${packages} lacks what @nestops/operations needs to ${purpose}: ${missing.join(', ')}. ` +
  'These are internals of that package, which this release of @nestops/operations ' +
  'reads; install a version of it that @nestops/operations supports (its peerDependencies), ' +
  'or a release of @nestops/operations that supports this one.';
