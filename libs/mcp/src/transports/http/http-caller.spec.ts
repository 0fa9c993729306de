import { describe, expect, it } from 'vitest';
import { defaultPrincipalId } from '../../telemetry/telemetry-options.resolver.js';
import { callerOf } from './http-caller.js';

describe('callerOf', () => {
  it('is the authenticated principal, by its id, whatever the credentials look like', () => {
    const alice = { id: 'alice', permissions: [] };
    expect(
      callerOf(alice, defaultPrincipalId, { authorization: 'ApiKey k' }, 'a'),
    ).toBe('principal alice');
    expect(
      callerOf(alice, defaultPrincipalId, { authorization: 'apikey  k2' }, 'b'),
    ).toBe('principal alice');
    expect(callerOf({ sub: 'bob' }, defaultPrincipalId, {}, 'c')).toBe(
      'principal bob',
    );
    expect(
      callerOf('carol', (principal) => `user:${String(principal)}`, {}, 'd'),
    ).toBe('principal user:carol');
  });

  it('without a principal id, is the credentials with the scheme in any case and the spaces ignored', () => {
    const key = (authorization: string, principal?: unknown) =>
      callerOf(principal, defaultPrincipalId, { authorization }, '10.0.0.1');

    expect(key('ApiKey dev-alice-key')).toBe(
      'credentials apikey dev-alice-key',
    );
    expect(key('apikey dev-alice-key')).toBe(key('ApiKey dev-alice-key'));
    expect(key('  APIKEY   dev-alice-key ')).toBe(key('ApiKey dev-alice-key'));
    // The credentials themselves are compared as sent.
    expect(key('ApiKey DEV-ALICE-KEY')).not.toBe(key('ApiKey dev-alice-key'));
    // A principal the id function gives no id for.
    expect(key('ApiKey k', { name: 'no id' })).toBe('credentials apikey k');
  });

  it('without credentials, is the address', () => {
    expect(callerOf(undefined, defaultPrincipalId, {}, '10.0.0.1')).toBe(
      'address 10.0.0.1',
    );
    expect(
      callerOf(
        undefined,
        defaultPrincipalId,
        { authorization: ' ' },
        '10.0.0.2',
      ),
    ).toBe('address 10.0.0.2');
    expect(callerOf(undefined, defaultPrincipalId, {}, undefined)).toBe(
      'address ',
    );
  });
});
