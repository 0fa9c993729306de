/**
 * How an app reads the permissions of its principals (`request.user` as
 * its authentication sets it), e.g. from roles:
 * `(user) => (user as { roles: string[] }).roles.flatMap((role) => ROLES[role])`.
 *
 * @publicApi
 */
export type PermissionsOf = (principal: unknown) => Iterable<string>;

/**
 * The permissions a principal holds, as an operation's `permission` is
 * checked against them: its `permissions` property, an array or a set of
 * strings; none for anything else (an anonymous caller).
 *
 * @publicApi
 */
export function principalPermissions(principal: unknown): ReadonlySet<string> {
  const permissions =
    typeof principal === 'object' && principal !== null
      ? (principal as { permissions?: unknown }).permissions
      : undefined;
  if (permissions instanceof Set) {
    return permissions as Set<string>;
  }
  return new Set(Array.isArray(permissions) ? permissions.map(String) : []);
}

/**
 * The permissions `principal` holds by the app's `permissionsOf`, else by
 * `principalPermissions`. An anonymous caller holds none; a hook that
 * returns no iterable throws, naming it.
 */
export function heldPermissions(
  principal: unknown,
  permissionsOf: PermissionsOf | undefined,
): ReadonlySet<string> {
  if (!permissionsOf) {
    return principalPermissions(principal);
  }
  if (principal === undefined || principal === null) {
    return new Set();
  }
  const held: unknown = permissionsOf(principal);
  if (held instanceof Set) {
    return held as Set<string>;
  }
  if (
    typeof held !== 'object' ||
    held === null ||
    typeof (held as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
    throw new TypeError(
      `permissionsOf must return an iterable of permission names (an array or a Set), not ${held === null ? 'null' : typeof held}.`,
    );
  }
  return new Set(Array.from(held as Iterable<unknown>, String));
}
