import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwksUriOf } from './authorization-server.metadata.js';

/** What the test server answers at a path: a status and a JSON body. */
type Answer = { status: number; body?: unknown };

/** A request the test server received. */
interface Seen {
  readonly url: string;
  readonly accept: string | undefined;
}

let server: Server;
let origin: string;
const answers = new Map<string, Answer>();
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', accept: req.headers.accept });
    const answer = answers.get(req.url ?? '') ?? { status: 404 };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((closed) => {
    server.close(() => closed());
    server.closeAllConnections();
  });
});

beforeEach(() => {
  answers.clear();
  seen.length = 0;
});

const RFC8414 = '/.well-known/oauth-authorization-server';
const OIDC = '/.well-known/openid-configuration';

describe('jwksUriOf', () => {
  it("reads RFC 8414's metadata at the origin for an issuer without a path, asking for JSON", async () => {
    answers.set(RFC8414, {
      status: 200,
      body: { issuer: origin, jwks_uri: `${origin}/keys` },
    });

    await expect(jwksUriOf(origin)).resolves.toBe(`${origin}/keys`);
    expect(seen).toEqual([{ url: RFC8414, accept: 'application/json' }]);
  });

  it("inserts an issuer's path after RFC 8414's well-known name, without its trailing slash", async () => {
    const issuer = `${origin}/tenants/a/`;
    answers.set(`${RFC8414}/tenants/a`, {
      status: 200,
      body: { issuer, jwks_uri: `${origin}/tenants/a/keys` },
    });

    await expect(jwksUriOf(issuer)).resolves.toBe(`${origin}/tenants/a/keys`);
    expect(seen.map((request) => request.url)).toEqual([
      `${RFC8414}/tenants/a`,
    ]);
  });

  it("falls back to OpenID Connect's metadata, appended to the issuer's path, when RFC 8414's is not there", async () => {
    const issuer = `${origin}/realms/x`;
    answers.set(`/realms/x${OIDC}`, {
      status: 200,
      body: { issuer, jwks_uri: `${origin}/realms/x/certs` },
    });

    await expect(jwksUriOf(issuer)).resolves.toBe(`${origin}/realms/x/certs`);
    expect(seen.map((request) => request.url)).toEqual([
      `${RFC8414}/realms/x`,
      `/realms/x${OIDC}`,
    ]);
    expect(seen.every((request) => request.accept === 'application/json')).toBe(
      true,
    );
  });

  it.each([
    [
      'names another issuer',
      () => ({ issuer: 'https://other.example', jwks_uri: `${origin}/evil` }),
    ],
    ['has no jwks_uri string', () => ({ issuer: origin, jwks_uri: 42 })],
  ])(
    'falls back to OpenID Connect when the first metadata %s',
    async (_, first) => {
      answers.set(RFC8414, { status: 200, body: first() });
      answers.set(OIDC, {
        status: 200,
        body: { issuer: origin, jwks_uri: `${origin}/certs` },
      });

      await expect(jwksUriOf(origin)).resolves.toBe(`${origin}/certs`);
    },
  );

  it('names each place it looked and what it found there when neither names the keys', async () => {
    answers.set(OIDC, {
      status: 200,
      body: { issuer: 'https://other.example', jwks_uri: 7 },
    });

    await expect(jwksUriOf(origin)).rejects.toThrow(
      new Error(
        `The signing keys of ${origin} could not be located (` +
          `${origin}${RFC8414}: HTTP 404; ` +
          `${origin}${OIDC}: names issuer "https://other.example" and jwks_uri 7).`,
      ),
    );
  });

  it('refuses metadata that names no issuer', async () => {
    answers.set(RFC8414, {
      status: 200,
      body: { jwks_uri: `${origin}/keys` },
    });
    answers.set(OIDC, { status: 500 });

    await expect(jwksUriOf(origin)).rejects.toThrow(
      new Error(
        `The signing keys of ${origin} could not be located (` +
          `${origin}${RFC8414}: names issuer undefined and jwks_uri "${origin}/keys"; ` +
          `${origin}${OIDC}: HTTP 500).`,
      ),
    );
  });
});
