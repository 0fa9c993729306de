import { type ExecutionContext, UnauthorizedException } from '@nestjs/common';
import type { OperationRegistry } from '@nestops/operations/internal';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpOAuthOptions } from '../interfaces/mcp-oauth-options.interface.js';
import type { McpSettings } from '../options/mcp-settings.js';
import { McpJwtGuard, type McpTokenPrincipal } from './mcp-jwt.guard.js';
import { resolveOAuthOptions } from './oauth-options.resolver.js';

const RESOURCE = 'https://notes.example.test/mcp';
const NOT_BEARER = 'Send the access token as Authorization: Bearer <token>.';
const NOT_VALID = 'The access token is not valid.';

/** How the test issuer answers a request for its keys. */
type KeysMode = 'ok' | 'error' | 'invalid';

let http: Server;
let issuer: string;
let keysMode: KeysMode = 'ok';
let metadataStatus = 200;
const requests: string[] = [];
let privateKey: CryptoKey;
let foreignKey: CryptoKey;

beforeAll(async () => {
  const keys = await generateKeyPair('RS256');
  privateKey = keys.privateKey;
  foreignKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = {
    ...(await exportJWK(keys.publicKey)),
    kid: 'k1',
    alg: 'RS256',
  };
  http = createServer((req, res) => {
    requests.push(req.url ?? '');
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/.well-known/oauth-authorization-server') {
      return metadataStatus === 200
        ? send(200, { issuer, jwks_uri: `${issuer}/jwks` })
        : send(metadataStatus, {});
    }
    if (req.url === '/jwks' || req.url === '/other-jwks') {
      if (keysMode === 'error') {
        return send(500, {});
      }
      return send(
        200,
        keysMode === 'invalid' ? { keys: 'none' } : { keys: [jwk] },
      );
    }
    send(404, {});
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((closed) => {
    http.close(() => closed());
    http.closeAllConnections();
  });
});

beforeEach(() => {
  keysMode = 'ok';
  metadataStatus = 200;
  requests.length = 0;
});

/** A registry of operations needing these permissions, counting its reads. */
function registry(...permissions: string[][]): OperationRegistry & {
  reads: number;
} {
  const fake = {
    reads: 0,
    list() {
      fake.reads++;
      return permissions.map((list) => ({ permissions: list }));
    },
  };
  return fake as unknown as OperationRegistry & { reads: number };
}

/** A guard for settings resolved from `oauth` (the test issuer's by default). */
function guardOf(
  oauth: Partial<McpOAuthOptions> = {},
  permissions: string[][] = [],
): McpJwtGuard {
  const problems: string[] = [];
  const settings = resolveOAuthOptions(
    {
      resource: RESOURCE,
      authorizationServers: [issuer],
      jwt: {},
      ...oauth,
    },
    problems,
  );
  expect(problems).toEqual([]);
  return new McpJwtGuard(
    { oauth: settings } as McpSettings,
    registry(...permissions),
  );
}

interface Request {
  headers: Record<string, string | string[] | undefined>;
  user?: unknown;
}

function contextOf(request: Request): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

/** Runs the guard on a request with `authorization`; the request after. */
async function check(
  guard: McpJwtGuard,
  authorization: string | string[] | undefined,
): Promise<Request> {
  const request: Request = { headers: { authorization } };
  await expect(guard.canActivate(contextOf(request))).resolves.toBe(true);
  return request;
}

/** The principal the guard makes of `token`. */
async function principalOf(
  guard: McpJwtGuard,
  token: string,
): Promise<McpTokenPrincipal> {
  return (await check(guard, `Bearer ${token}`)).user as McpTokenPrincipal;
}

/** Why the guard refuses `authorization`. */
async function refusal(
  guard: McpJwtGuard,
  authorization: string | string[],
): Promise<unknown> {
  const request: Request = { headers: { authorization } };
  const error = await guard.canActivate(contextOf(request)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(request.user).toBeUndefined();
  return error;
}

const now = () => Math.floor(Date.now() / 1000);

/** A token the issuer's key signs: a valid one for `sub` unless `claims` says otherwise. */
function token(
  claims: Record<string, unknown> = {},
  key: CryptoKey = privateKey,
): Promise<string> {
  const payload: Record<string, unknown> = {
    sub: 'alice',
    scope: 'notes.write',
    iss: issuer,
    aud: RESOURCE,
    iat: now(),
    exp: now() + 600,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) {
      delete payload[name];
    }
  }
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
    .sign(key);
}

/** A token whose payload is `payload` exactly (JSON that JSON.stringify cannot make), signed with the issuer's key. */
function rawToken(payload: string): string {
  const input = [
    JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' }),
    payload,
  ]
    .map((part) => Buffer.from(part).toString('base64url'))
    .join('.');
  const signature = sign(
    'sha256',
    Buffer.from(input),
    KeyObject.from(privateKey),
  );
  return `${input}.${signature.toString('base64url')}`;
}

describe('McpJwtGuard: the Authorization header', () => {
  it('lets a request without Authorization through as anonymous, fetching nothing', async () => {
    const request = await check(guardOf(), undefined);

    expect(request.user).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it.each([
    ['another scheme', 'Basic YWxpY2U6c2VjcmV0'],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['no space after the scheme', 'Bearertoken'],
    ['text before the scheme', 'x Bearer token'],
    ['two tokens', 'Bearer token other'],
    ['text after the padding', 'Bearer token=x'],
    ['a character outside base64 and the token68 set', 'Bearer tok*en'],
    ['two headers', ['Bearer token', 'Bearer other']],
  ])(
    'refuses %s with 401, asking for a bearer token',
    async (_, authorization) => {
      const error = await refusal(guardOf(), authorization);

      expect(error).toBeInstanceOf(UnauthorizedException);
      expect((error as Error).message).toBe(NOT_BEARER);
      expect(requests).toEqual([]);
    },
  );

  it.each([
    ['the scheme in lower case', (t: string) => `bearer ${t}`],
    ['the scheme in upper case', (t: string) => `BEARER ${t}`],
    ['several spaces after the scheme', (t: string) => `Bearer   ${t}`],
    ['spaces after the token', (t: string) => `Bearer ${t}  `],
  ])('takes a bearer token with %s', async (_, header) => {
    const request = await check(guardOf(), header(await token()));

    expect(request.user).toMatchObject({ id: 'alice' });
  });

  it.each([
    ['padding', 'abc=='],
    ['every token68 character', 'aZ09-._~+/'],
  ])(
    'reads a token with %s as a token (then refused as not valid), not as a bad header',
    async (_, value) => {
      const error = await refusal(guardOf(), `Bearer ${value}`);

      expect(error).toBeInstanceOf(UnauthorizedException);
      expect((error as Error).message).toBe(NOT_VALID);
    },
  );
});

describe('McpJwtGuard: the principal', () => {
  it("is the token's sub, scopes, granted permissions and claims, frozen", async () => {
    const guard = guardOf({}, [['notes.write'], ['notes.admin']]);
    const signed = await token({ scope: 'notes.write profile' });

    const principal = await principalOf(guard, signed);

    expect(principal).toEqual({
      id: 'alice',
      scopes: ['notes.write', 'profile'],
      permissions: ['notes.write', 'profile'],
      claims: expect.objectContaining({
        sub: 'alice',
        scope: 'notes.write profile',
        aud: RESOURCE,
      }),
    });
    expect(Object.isFrozen(principal)).toBe(true);
    expect(Object.isFrozen(principal.scopes)).toBe(true);
    expect(Object.isFrozen(principal.permissions)).toBe(true);
    expect(Object.isFrozen(principal.claims)).toBe(true);
  });

  it('splits scope on spaces, dropping empty items', async () => {
    const principal = await principalOf(
      guardOf(),
      await token({ scope: '  notes.read   notes.write ' }),
    );

    expect(principal.scopes).toEqual(['notes.read', 'notes.write']);
  });

  it('reads scp (a list or a string) when there is no scope, and scope before scp', async () => {
    const guard = guardOf();

    expect(
      (
        await principalOf(
          guard,
          await token({ scope: undefined, scp: ['a', 'b'] }),
        )
      ).scopes,
    ).toEqual(['a', 'b']);
    expect(
      (await principalOf(guard, await token({ scope: undefined, scp: 'c d' })))
        .scopes,
    ).toEqual(['c', 'd']);
    expect(
      (await principalOf(guard, await token({ scope: 'e', scp: ['f'] })))
        .scopes,
    ).toEqual(['e']);
    expect(
      (await principalOf(guard, await token({ scope: undefined }))).scopes,
    ).toEqual([]);
  });

  it('grants the permissions of the claims jwt.permissionClaims names: strings of a list, or a space-separated string', async () => {
    const guard = guardOf({
      jwt: { permissionClaims: ['roles', 'groups', 'other', 'missing'] },
    });

    const principal = await principalOf(
      guard,
      await token({
        scope: 'profile',
        roles: ['notes.write', 7, null, 'notes.read'],
        groups: ' notes.admin  audit ',
        other: { 'notes.purge': true },
      }),
    );

    expect(principal.scopes).toEqual(['profile']);
    expect(principal.permissions).toEqual([
      'profile',
      'notes.write',
      'notes.read',
      'notes.admin',
      'audit',
    ]);
  });

  it("grants an app's permission whose scopes (scopesOf) the token holds, and reads the app's permissions once", async () => {
    const permissions = [['notes.write'], ['notes.write', 'notes.admin']];
    const problems: string[] = [];
    const settings = resolveOAuthOptions(
      {
        resource: RESOURCE,
        authorizationServers: [issuer],
        jwt: {},
        scopesOf: (permission) =>
          permission === 'notes.admin' ? ['admin'] : ['notes'],
      },
      problems,
    );
    const operations = registry(...permissions);
    const guard = new McpJwtGuard(
      { oauth: settings } as McpSettings,
      operations,
    );

    expect(
      (await principalOf(guard, await token({ scope: 'notes' }))).permissions,
    ).toEqual(['notes', 'notes.write']);
    expect(
      (await principalOf(guard, await token({ scope: 'notes admin' })))
        .permissions,
    ).toEqual(['notes', 'admin', 'notes.write', 'notes.admin']);
    expect(operations.reads).toBe(1);
  });
});

describe('McpJwtGuard: what it verifies', () => {
  it.each<[string, Record<string, unknown>]>([
    ['no exp', { exp: undefined }],
    ['exp passed', { exp: now() - 5 }],
    ['no sub', { sub: undefined }],
    ['an empty sub', { sub: '' }],
    ['another issuer', { iss: 'https://other.example.test' }],
    ['another audience', { aud: 'https://other.example.test/mcp' }],
    ['nbf in the future', { nbf: now() + 60 }],
    ['scope a number', { scope: 7 }],
    ['scp a list holding a number', { scope: undefined, scp: ['a', 1] }],
    ['aud a list holding a number', { aud: [RESOURCE, 1] }],
  ])('refuses a token with %s: 401', async (_, claims) => {
    const error = await refusal(guardOf(), `Bearer ${await token(claims)}`);

    expect(error).toBeInstanceOf(UnauthorizedException);
    expect((error as Error).message).toBe(NOT_VALID);
  });

  it.each([
    ['exp', `"exp": 1e999`],
    ['iat', `"exp": ${now() + 600}, "iat": 1e999`],
    ['nbf', `"exp": ${now() + 600}, "nbf": -1e999`],
  ])(
    'refuses a token whose %s is not a finite number (JSON allows 1e999)',
    async (_, dates) => {
      const raw = rawToken(
        `{"sub": "alice", "iss": "${issuer}", "aud": "${RESOURCE}", ${dates}}`,
      );

      const error = await refusal(guardOf(), `Bearer ${raw}`);

      expect(error).toBeInstanceOf(UnauthorizedException);
      expect((error as Error).message).toBe(NOT_VALID);
    },
  );

  it('takes a raw token of finite dates (the check above is of the dates alone)', async () => {
    const raw = rawToken(
      `{"sub": "alice", "iss": "${issuer}", "aud": "${RESOURCE}", "exp": ${now() + 600}, "iat": ${now()}, "nbf": ${now() - 1}}`,
    );

    expect((await principalOf(guardOf(), raw)).id).toBe('alice');
  });

  it('refuses a signature of a key the JWKS lacks: 401', async () => {
    const error = await refusal(
      guardOf(),
      `Bearer ${await token({}, foreignKey)}`,
    );

    expect(error).toBeInstanceOf(UnauthorizedException);
    expect((error as Error).message).toBe(NOT_VALID);
  });

  it('refuses an algorithm outside jwt.algorithms', async () => {
    const error = await refusal(
      guardOf({ jwt: { algorithms: ['ES256'] } }),
      `Bearer ${await token()}`,
    );

    expect(error).toBeInstanceOf(UnauthorizedException);
  });

  it('takes a token for any audience of a jwt.audience list', async () => {
    const guard = guardOf({
      jwt: { audience: ['https://a.example.test', 'https://b.example.test'] },
    });

    const principal = await principalOf(
      guard,
      await token({ aud: 'https://b.example.test' }),
    );

    expect(principal.id).toBe('alice');
    expect(
      await refusal(guard, `Bearer ${await token({ aud: RESOURCE })}`),
    ).toBeInstanceOf(UnauthorizedException);
  });

  it('takes a token expired within jwt.clockTolerance, and not one past it', async () => {
    const guard = guardOf({ jwt: { clockTolerance: 60 } });

    expect(
      (await principalOf(guard, await token({ exp: now() - 30 }))).id,
    ).toBe('alice');
    expect(
      await refusal(guard, `Bearer ${await token({ exp: now() - 120 })}`),
    ).toBeInstanceOf(UnauthorizedException);
  });
});

describe('McpJwtGuard: the keys', () => {
  it("fetches the issuer's metadata and keys once, for every token after", async () => {
    const guard = guardOf();

    await principalOf(guard, await token());
    await principalOf(guard, await token({ sub: 'bob' }));

    expect(requests).toEqual([
      '/.well-known/oauth-authorization-server',
      '/jwks',
    ]);
  });

  it('fetches the keys at jwt.jwksUri without asking for the metadata', async () => {
    const guard = guardOf({ jwt: { jwksUri: `${issuer}/other-jwks` } });

    await principalOf(guard, await token());

    expect(requests).toEqual(['/other-jwks']);
  });

  it('fails (not 401) while the keys cannot be located, and locates them again after', async () => {
    const guard = guardOf();
    const signed = await token();
    metadataStatus = 503;

    const error = await refusal(guard, `Bearer ${signed}`);

    expect(error).not.toBeInstanceOf(UnauthorizedException);
    expect((error as Error).message).toContain('could not be located');
    metadataStatus = 200;
    expect((await principalOf(guard, signed)).id).toBe('alice');
  });

  it('fails (not 401) when the JWKS answers with an error', async () => {
    keysMode = 'error';

    const error = await refusal(guardOf(), `Bearer ${await token()}`);

    expect(error).not.toBeInstanceOf(UnauthorizedException);
    expect(error).toMatchObject({ code: 'ERR_JOSE_GENERIC' });
  });

  it('fails (not 401) when the JWKS is not a key set', async () => {
    keysMode = 'invalid';

    const error = await refusal(guardOf(), `Bearer ${await token()}`);

    expect(error).not.toBeInstanceOf(UnauthorizedException);
    expect(error).toMatchObject({ code: 'ERR_JWKS_INVALID' });
  });
});

describe('McpJwtGuard: its settings', () => {
  it('fails with what it needs when the app has no oauth option', async () => {
    const guard = new McpJwtGuard({} as McpSettings, registry());

    await expect(
      guard.canActivate(contextOf({ headers: { authorization: 'Bearer x' } })),
    ).rejects.toThrow(
      new Error(
        'McpJwtGuard needs McpModule.forRoot({ oauth: { ..., jwt: {} } }).',
      ),
    );
  });

  it('fails with what it needs when the oauth option has no jwt', async () => {
    const guard = guardOf({ jwt: undefined });

    await expect(
      guard.canActivate(contextOf({ headers: { authorization: 'Bearer x' } })),
    ).rejects.toThrow(
      new Error(
        'McpJwtGuard needs the oauth.jwt option of McpModule.forRoot().',
      ),
    );
  });
});
