import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { KeyObject, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the issuer received: what a leaked token would show up in. */
export interface IssuerRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/**
 * A test authorization server on 127.0.0.1: RFC 8414 metadata and a JWKS,
 * and JWT access tokens signed with its key (or with a key it never
 * published). It keeps every request it gets, so a test can see that no
 * token was ever sent to it.
 */
export interface TokenIssuer {
  /** `http://127.0.0.1:<port>`, also its `iss`. */
  readonly issuer: string;
  readonly requests: readonly IssuerRequest[];
  /**
   * A signed access token for `sub`: `aud`, `iss`, `iat`, `exp` of a valid
   * token unless `claims` says otherwise (any value, of any type, as
   * given; `undefined` leaves the claim out); `foreignKey` signs it with a
   * key the JWKS lacks (under the same `kid`), `alg` with another
   * algorithm of the issuer's RSA key.
   */
  token(
    sub: string,
    scope: string,
    claims?: Record<string, unknown>,
    options?: { foreignKey?: boolean; alg?: string },
  ): Promise<string>;
  /**
   * `header` and `payload` as they are (base64url JSON), RS256-signed with
   * the published key: tokens a JWT library would refuse to make.
   */
  signRaw(header: object, payload: object): string;
  /** The `issuer` its metadata names from now on (RFC 8414 mix-up); default its own. */
  metadataIssuer?: string;
  /** While true, a request for its JWKS is never answered. */
  hangKeys?: boolean;
  close(): Promise<void>;
}

export async function startTokenIssuer(audience: string): Promise<TokenIssuer> {
  const keys = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const publicJwk = {
    ...(await exportJWK(keys.publicKey)),
    kid: 'k1',
    alg: 'RS256',
    use: 'sig',
  };
  const requests: IssuerRequest[] = [];
  let issuer = '';
  const http: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body,
      });
      const send = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/.well-known/oauth-authorization-server') {
        return send({
          issuer: server.metadataIssuer ?? issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
        });
      }
      if (req.url === '/jwks' && server.hangKeys) {
        return;
      }
      if (req.url === '/jwks') {
        return send({ keys: [publicJwk] });
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
  issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const server: TokenIssuer = {
    issuer,
    requests,
    async token(sub, scope, claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const payload: Record<string, unknown> = {
        scope,
        sub,
        iss: issuer,
        aud: audience,
        iat: now,
        exp: now + 600,
        ...claims,
      };
      for (const [name, value] of Object.entries(payload)) {
        if (value === undefined) {
          delete payload[name];
        }
      }
      return new SignJWT(payload)
        .setProtectedHeader({
          alg: options.alg ?? 'RS256',
          kid: 'k1',
          typ: 'at+jwt',
        })
        .sign(options.foreignKey ? foreign.privateKey : keys.privateKey);
    },
    signRaw(header, payload) {
      const input = [header, payload]
        .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
        .join('.');
      const key = KeyObject.from(keys.privateKey);
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    },
    close: () =>
      new Promise<void>((closed) => {
        http.close(() => closed());
        http.closeAllConnections();
      }),
  };
  return server;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => done(body));
  });
}
