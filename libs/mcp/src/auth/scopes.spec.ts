import { grantedPermissions, scopesFor } from './scopes.js';

const SCOPES: Record<string, readonly string[]> = {
  'orders.write': ['orders:read', 'orders:write'],
  'orders.refund': [],
  'orders.read': ['orders:read'],
};
const scopesOf = (permission: string) => SCOPES[permission] ?? [permission];
const APP = Object.keys(SCOPES);

describe('grantedPermissions', () => {
  it('grants a permission only when every one of its scopes is held', () => {
    expect(grantedPermissions(['orders:write'], APP, scopesOf)).toEqual([
      'orders:write',
    ]);
    expect(
      grantedPermissions(['orders:write', 'orders:read'], APP, scopesOf),
    ).toEqual(['orders:write', 'orders:read', 'orders.write', 'orders.read']);
  });

  it('grants a permission of no scopes to no one by its scopes: empty is not "anyone"', () => {
    expect(grantedPermissions([], APP, scopesOf)).toEqual([]);
    expect(
      grantedPermissions(['orders:read', 'orders:write'], APP, scopesOf),
    ).not.toContain('orders.refund');
  });

  it('keeps each grant itself: a grant naming the permission gives it', () => {
    expect(grantedPermissions(['orders.refund'], APP, scopesOf)).toEqual([
      'orders.refund',
    ]);
  });
});

describe('scopesFor', () => {
  it('names every scope of the permissions, each once, in order', () => {
    expect(
      scopesFor(['orders.read', 'orders.write', 'orders.refund'], scopesOf),
    ).toEqual(['orders:read', 'orders:write']);
  });
});
