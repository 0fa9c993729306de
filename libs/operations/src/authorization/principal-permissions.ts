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
