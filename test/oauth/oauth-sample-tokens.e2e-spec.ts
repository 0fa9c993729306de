import { JWKS_REQUESTS_PER_MINUTE } from '../../src/auth/oauth-jwt.strategy';
import { type McpHttp, mcpHttp, type McpReply } from '../support/mcp-http';
import { freePort } from '../support/oauth-client';
import { type RunningSample, startSampleApp } from '../support/sample-app';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer';

/**
 * Hand-made access tokens against the sample in OAuth mode, with each of
 * its verifiers: the library's (jose) and the app's passport-jwt strategy.
 * Every malformed token is refused with the 401 a forged signature gets,
 * and writes nothing (by MCP or REST).
 */

const ORDER = { name: 'token', amount: 1 };

interface TokenSample {
  readonly app: RunningSample;
  readonly issuer: TokenIssuer;
  readonly mcp: McpHttp;
  readonly resource: string;
}

async function startTokenSample(verifier: string): Promise<TokenSample> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const issuer = await startTokenIssuer(resource);
  const app = await startSampleApp('sqlite', {
    port,
    env: {
      OAUTH_ISSUER: issuer.issuer,
      MCP_RESOURCE: resource,
      OAUTH_VERIFIER: verifier,
    },
  });
  return { app, issuer, mcp: mcpHttp(app.baseUrl), resource };
}

/** The claims of a valid token for alice, from `issuer` for `resource`. */
function claims(sample: TokenSample): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: sample.issuer.issuer,
    aud: sample.resource,
    sub: 'alice',
    scope: 'orders.read orders.write',
    iat: now,
    exp: now + 600,
  };
}

const HEADER = { alg: 'RS256', kid: 'k1', typ: 'at+jwt' };

/** A token signed with the issuer's key: the valid claims with `change` applied (undefined deletes). */
function tokenWith(
  sample: TokenSample,
  change: Record<string, unknown>,
  header: object = HEADER,
): string {
  const payload = { ...claims(sample), ...change };
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) {
      delete payload[name];
    }
  }
  return sample.issuer.signRaw(header, payload);
}

type TokenCase = [string, (sample: TokenSample) => string];

/** Refused by both verifiers: a token's form, then its claims' types. */
const REFUSED: TokenCase[] = [
  ['no exp', (s) => `Bearer ${tokenWith(s, { exp: undefined })}`],
  ['no sub', (s) => `Bearer ${tokenWith(s, { sub: undefined })}`],
  [
    'an unknown crit header parameter',
    (s) =>
      `Bearer ${tokenWith(s, {}, { ...HEADER, crit: ['x-nonce'], 'x-nonce': 1 })}`,
  ],
  [
    'b64: false (crit b64)',
    (s) =>
      `Bearer ${tokenWith(s, {}, { ...HEADER, b64: false, crit: ['b64'] })}`,
  ],
  ['trailing text after the token', (s) => `Bearer ${tokenWith(s, {})} extra`],
  ['an empty sub', (s) => `Bearer ${tokenWith(s, { sub: '' })}`],
  ['a numeric sub', (s) => `Bearer ${tokenWith(s, { sub: 7 })}`],
  ['sub {}', (s) => `Bearer ${tokenWith(s, { sub: {} })}`],
  [
    'sub {"toString": 1}',
    (s) => `Bearer ${tokenWith(s, { sub: { toString: 1 } })}`,
  ],
  ['a numeric iss', (s) => `Bearer ${tokenWith(s, { iss: 7 })}`],
  ['a numeric aud', (s) => `Bearer ${tokenWith(s, { aud: 7 })}`],
  ['exp as a string', (s) => `Bearer ${tokenWith(s, { exp: '9999999999' })}`],
  ['nbf as a string', (s) => `Bearer ${tokenWith(s, { nbf: '0' })}`],
  ['iat as a string', (s) => `Bearer ${tokenWith(s, { iat: '0' })}`],
  ['a numeric scope', (s) => `Bearer ${tokenWith(s, { scope: 7 })}`],
  [
    'a scope array with a number',
    (s) => `Bearer ${tokenWith(s, { scope: ['orders.write', 7] })}`,
  ],
  ['scope as an object', (s) => `Bearer ${tokenWith(s, { scope: {} })}`],
];

/**
 * Refused by the passport strategy only: jose honours `b64` only when `crit`
 * names it (RFC 7797 6), so without it the payload is the usual base64url
 * and the token says what it seems to; jsonwebtoken honours no extension.
 */
const REFUSED_BY_PASSPORT: TokenCase[] = [
  [
    'b64: false without crit',
    (s) => `Bearer ${tokenWith(s, {}, { ...HEADER, b64: false })}`,
  ],
];

async function countOrders(sample: TokenSample): Promise<number> {
  const [row] = await sample.app.dataSource.query<{ n: number | string }[]>(
    'SELECT COUNT(*) AS n FROM orders',
  );
  return Number(row.n);
}

/** `orders_create` over MCP, then `POST /orders`, with `authorization`. */
async function writeBoth(
  sample: TokenSample,
  authorization: string,
): Promise<{ mcp: McpReply; rest: Response }> {
  const mcp = await sample.mcp.request(
    'tools/call',
    { name: 'orders_create', arguments: ORDER },
    { authorization },
  );
  const rest = await fetch(`${sample.app.baseUrl}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(ORDER),
  });
  return { mcp, rest };
}

/** How each endpoint refuses a token whose signature was changed. */
async function forgedReply(sample: TokenSample) {
  const [header, payload] = tokenWith(sample, {}).split('.');
  const { mcp, rest } = await writeBoth(
    sample,
    `Bearer ${header}.${payload}.${Buffer.from('forged').toString('base64url')}`,
  );
  return {
    mcp: { status: mcp.status, challenge: mcp.header('www-authenticate') },
    rest: await restForm(rest),
  };
}

/** A REST refusal's status, challenge and form, without its message (which says why). */
async function restForm(rest: Response) {
  const { statusCode, error } = (await rest.json()) as Record<string, unknown>;
  const challenge = rest.headers.get('www-authenticate');
  return { status: rest.status, challenge, statusCode, error };
}

describe.each([
  ['the library verifier (jose)', 'library', REFUSED],
  [
    'passport-jwt, the app own guard',
    'passport',
    [...REFUSED, ...REFUSED_BY_PASSPORT],
  ],
] as const)('the sample in OAuth mode with %s', (_, verifier, cases) => {
  let sample: TokenSample;
  let forged: Awaited<ReturnType<typeof forgedReply>>;
  beforeAll(async () => {
    sample = await startTokenSample(verifier);
    forged = await forgedReply(sample);
  });
  afterAll(async () => {
    await sample?.app.close();
    await sample?.issuer.close();
  });

  it('takes a valid token: both writes land', async () => {
    const before = await countOrders(sample);

    const { mcp, rest } = await writeBoth(
      sample,
      `Bearer ${tokenWith(sample, {})}`,
    );

    expect(mcp.status).toBe(200);
    expect(mcp.json()).toMatchObject({ result: { structuredContent: ORDER } });
    expect(rest.status).toBe(201);
    expect(await countOrders(sample)).toBe(before + 2);
    expect(forged.mcp).toEqual({
      status: 401,
      challenge: expect.stringMatching(/^Bearer error="invalid_token", /),
    });
    // REST answers no challenge in either mode; the same form is kept.
    expect(forged.rest).toMatchObject({
      status: 401,
      challenge: null,
      statusCode: 401,
    });
  });

  it.each(cases)(
    'refuses a token with %s: 401 as a forged one, nothing written',
    async (_, authorization) => {
      const before = await countOrders(sample);

      const { mcp, rest } = await writeBoth(sample, authorization(sample));

      expect({
        status: mcp.status,
        challenge: mcp.header('www-authenticate'),
      }).toEqual(forged.mcp);
      expect(await restForm(rest)).toEqual(forged.rest);
      expect(await countOrders(sample)).toBe(before);
    },
  );
});

describe('the passport strategy of the sample', () => {
  let sample: TokenSample;
  beforeAll(async () => {
    sample = await startTokenSample('passport');
  });
  afterAll(async () => {
    await sample?.app.close();
    await sample?.issuer.close();
  });

  it('takes scope as an array of strings', async () => {
    const before = await countOrders(sample);

    const { rest } = await writeBoth(
      sample,
      `Bearer ${tokenWith(sample, { scope: ['orders.read', 'orders.write'] })}`,
    );

    expect(rest.status).toBe(201);
    expect(await countOrders(sample)).toBe(before + 2);
  });

  it(`fetches the JWKS at most ${JWKS_REQUESTS_PER_MINUTE} times for 50 random kids, and still takes the known one`, async () => {
    const jwksFetches = () =>
      sample.issuer.requests.filter((r) => r.url === '/jwks').length;
    const before = await countOrders(sample);

    const statuses: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const kid = `random-${i}-${Math.random().toString(36).slice(2)}`;
      const { rest } = await writeBoth(
        sample,
        `Bearer ${tokenWith(sample, {}, { ...HEADER, kid })}`,
      );
      statuses.push(rest.status);
    }

    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(await countOrders(sample)).toBe(before);
    expect(jwksFetches()).toBeGreaterThan(0);
    expect(jwksFetches()).toBeLessThanOrEqual(JWKS_REQUESTS_PER_MINUTE);
    const { rest } = await writeBoth(sample, `Bearer ${tokenWith(sample, {})}`);
    expect(rest.status).toBe(201);
  });
});
