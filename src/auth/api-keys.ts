import type { Principal } from './principal';

/** The sample's API keys. A real app would look them up in its store. */
export const API_KEYS: ReadonlyMap<string, Principal> = new Map([
  [
    'dev-bob-key',
    { id: 'bob', permissions: ['orders.read'], tenants: ['default', 'acme'] },
  ],
  [
    'dev-alice-key',
    {
      id: 'alice',
      permissions: ['orders.read', 'orders.write'],
      tenants: ['default', 'acme', 'globex', 'initech'],
    },
  ],
]);
