import type { CanActivate } from '@nestjs/common';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import { McpJwtGuard } from './mcp-jwt.guard.js';

class AuthGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

const BASE = {
  resource: 'https://api.example.com/mcp',
  authorizationServers: ['https://login.example.com'],
};

function problemOf(options: Record<string, unknown>): string {
  try {
    resolveMcpOptions(options as unknown as McpModuleOptions);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('resolveMcpOptions: oauth', () => {
  it('applies the defaults and derives the metadata URL from the resource (RFC 9728)', () => {
    const { oauth, authGuard } = resolveMcpOptions({
      oauth: { ...BASE, jwt: {} },
    });

    expect(authGuard).toBe(McpJwtGuard);
    expect(oauth).toMatchObject({
      resource: 'https://api.example.com/mcp',
      requireToken: 'always',
      stepUp: false,
      metadataUrl:
        'https://api.example.com/.well-known/oauth-protected-resource/mcp',
      jwt: {
        issuer: 'https://login.example.com',
        audience: 'https://api.example.com/mcp',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        permissionClaims: [],
        clockTolerance: 0,
      },
    });
    expect(oauth?.scopesOf('orders.write')).toEqual(['orders.write']);
  });

  it('puts the well-known path alone for a resource at the root', () => {
    const { oauth } = resolveMcpOptions({
      authGuard: AuthGuard,
      oauth: { ...BASE, resource: 'http://127.0.0.1:3000/' },
    });

    expect(oauth?.metadataUrl).toBe(
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource',
    );
    expect(oauth?.jwt).toBeUndefined();
  });

  it('takes another audience for the JWT verifier', () => {
    const { oauth } = resolveMcpOptions({
      oauth: { ...BASE, jwt: { audience: ['a1b2', 'api://a1b2'] } },
    });

    expect(oauth?.jwt?.audience).toEqual(['a1b2', 'api://a1b2']);
  });

  it('keeps the app guard given beside oauth.jwt', () => {
    expect(
      resolveMcpOptions({ authGuard: AuthGuard, oauth: { ...BASE, jwt: {} } })
        .authGuard,
    ).toBe(AuthGuard);
  });

  it.each<[string, Record<string, unknown>]>([
    ['oauth needs authGuard', { oauth: BASE }],
    ['oauth must be an object', { oauth: 'yes' }],
    ['oauth.resource', { oauth: { ...BASE, resource: 'api.example.com/mcp' } }],
    [
      'oauth.resource',
      { oauth: { ...BASE, resource: 'http://api.example.com/mcp' } },
    ],
    [
      'oauth.resource',
      { oauth: { ...BASE, resource: 'https://api.example.com/mcp#x' } },
    ],
    [
      'oauth.resource',
      { oauth: { ...BASE, resource: 'https://api.example.com/mcp?a=1' } },
    ],
    [
      'oauth.authorizationServers',
      { oauth: { ...BASE, authorizationServers: [] } },
    ],
    [
      'oauth.authorizationServers',
      { oauth: { ...BASE, authorizationServers: 'https://x.example' } },
    ],
    [
      'oauth.authorizationServers[1]',
      {
        oauth: {
          ...BASE,
          authorizationServers: ['https://a.example', 'ftp://b'],
        },
      },
    ],
    ['oauth.scopesSupported', { oauth: { ...BASE, scopesSupported: ['a b'] } }],
    ['oauth.scopesSupported', { oauth: { ...BASE, scopesSupported: ['a"'] } }],
    ['oauth.resourceName', { oauth: { ...BASE, resourceName: ' ' } }],
    [
      'oauth.resourceDocumentation',
      { oauth: { ...BASE, resourceDocumentation: 'docs' } },
    ],
    ['oauth.requireToken', { oauth: { ...BASE, requireToken: 'never' } }],
    ['oauth.stepUp', { oauth: { ...BASE, stepUp: 'yes' } }],
    ['oauth.scopesOf', { oauth: { ...BASE, scopesOf: { 'a.b': 'c' } } }],
    ['oauth.jwt must be an object', { oauth: { ...BASE, jwt: true } }],
    ['oauth.jwt.issuer', { oauth: { ...BASE, jwt: { issuer: 'login' } } }],
    ['oauth.jwt.jwksUri', { oauth: { ...BASE, jwt: { jwksUri: 'keys' } } }],
    ['oauth.jwt.algorithms', { oauth: { ...BASE, jwt: { algorithms: [] } } }],
    [
      'oauth.jwt.permissionClaims',
      { oauth: { ...BASE, jwt: { permissionClaims: [''] } } },
    ],
    [
      'oauth.jwt.clockTolerance',
      { oauth: { ...BASE, jwt: { clockTolerance: -1 } } },
    ],
    ['toolListPerCaller must be a boolean', { toolListPerCaller: 'on' }],
    ['toolListPerCaller needs authGuard', { toolListPerCaller: true }],
  ])('names %s', (problem, options) => {
    expect(problemOf(options)).toContain(problem);
  });

  it.each(['none', 'NONE', 'None', 'nOnE'])(
    "refuses '%s' among oauth.jwt.algorithms, whatever its case",
    (alg) => {
      expect(
        problemOf({
          oauth: { ...BASE, jwt: { algorithms: ['RS256', alg] } },
        }),
      ).toContain(
        "oauth.jwt.algorithms must list at least one signing algorithm, never 'none'",
      );
    },
  );
});
