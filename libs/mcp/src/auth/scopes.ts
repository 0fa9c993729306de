/**
 * The permissions a token's grants give: each grant itself (a scope, or a
 * permission claim's value) and each of the app's permissions whose scopes
 * (through `scopesOf`) are all granted. A permission of no scopes is
 * granted by none (an empty list must not mean "anyone").
 */
export function grantedPermissions(
  grants: readonly string[],
  appPermissions: readonly string[],
  scopesOf: (permission: string) => readonly string[],
): string[] {
  const granted = new Set(grants);
  const permissions = new Set(grants);
  for (const permission of appPermissions) {
    const scopes = scopesOf(permission);
    if (scopes.length > 0 && scopes.every((scope) => granted.has(scope))) {
      permissions.add(permission);
    }
  }
  return [...permissions];
}

/** The scopes that grant every one of `permissions`, each once, in order. */
export function scopesFor(
  permissions: readonly string[],
  scopesOf: (permission: string) => readonly string[],
): string[] {
  return [
    ...new Set(permissions.flatMap((permission) => scopesOf(permission))),
  ];
}
