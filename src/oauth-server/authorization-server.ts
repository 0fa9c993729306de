import { generateKeyPairSync } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** The sample's users: password, and the scopes each may be granted. */
export const USERS: Readonly<
  Record<string, { password: string; scopes: readonly string[] }>
> = {
  alice: { password: 'alice', scopes: ['orders.read', 'orders.write'] },
  bob: { password: 'bob', scopes: ['orders.read'] },
};

const SCOPES = 'orders.read orders.write';

/** A running authorization server. */
export interface RunningAuthorizationServer {
  /** `http://127.0.0.1:<port>`: its issuer. */
  readonly issuer: string;
  close(): Promise<void>;
}

/**
 * A real OAuth 2.1 authorization server for the sample (`oidc-provider`),
 * on 127.0.0.1: dynamic client registration, authorization code with PKCE
 * (required of public clients), RFC 8707 resource indicators, and JWT
 * access tokens for `resource` signed with a key made at startup. Its
 * login page takes alice (password `alice`: `orders.read orders.write`) or
 * bob (`bob`: `orders.read`); consent is given for the scopes the user may
 * have and refused for the others, without asking.
 */
export async function startAuthorizationServer(
  resource: string,
  port = 0,
): Promise<RunningAuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((listening) =>
    server.listen(port, '127.0.0.1', listening),
  );
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [],
    jwks: {
      keys: [
        {
          ...privateKey.export({ format: 'jwk' }),
          kid: 'sample',
          alg: 'RS256',
          use: 'sig',
        },
      ],
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: SCOPES,
          audience: resource,
          accessTokenTTL: 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // Also the resource's scopes: clients name them when they register.
    scopes: ['openid', 'offline_access', ...SCOPES.split(' ')],
    findAccount: (_ctx, id) =>
      Object.hasOwn(USERS, id)
        ? { accountId: id, claims: () => ({ sub: id }) }
        : undefined,
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  });
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(provider, resource, req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  });
  return {
    issuer,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** The login page and its form; consent given for what the user may have. */
async function interaction(
  provider: Provider,
  resource: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<form method="post" action="/interaction/${details.uid}"><input name="login"><input name="password" type="password"><button>Sign in</button></form>`,
      );
      return;
    }
    const form = new URLSearchParams(await bodyOf(req));
    const login = form.get('login') ?? '';
    const user = Object.hasOwn(USERS, login) ? USERS[login] : undefined;
    if (!user || form.get('password') !== user.password) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('Unknown user or wrong password.');
      return;
    }
    await provider.interactionFinished(req, res, {
      login: { accountId: login },
    });
    return;
  }
  const accountId = details.session?.accountId ?? '';
  const allowed = new Set(USERS[accountId]?.scopes ?? []);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({
        accountId,
        clientId: String(details.params.client_id),
      });
  if (!grant) {
    throw new Error(`Grant ${details.grantId} not found.`);
  }
  const requested = String(details.params.scope ?? '').split(' ');
  const mayHave = (scope: string) =>
    allowed.has(scope) || !SCOPES.split(' ').includes(scope);
  const missing = (details.prompt.details.missingOIDCScope ?? []) as string[];
  if (missing.some(mayHave)) {
    grant.addOIDCScope(missing.filter(mayHave).join(' '));
  }
  if (missing.some((scope) => !mayHave(scope))) {
    grant.rejectOIDCScope(missing.filter((scope) => !mayHave(scope)).join(' '));
  }
  const scopes = requested.filter((scope) => SCOPES.split(' ').includes(scope));
  const granted = scopes.filter((scope) => allowed.has(scope));
  const refused = scopes.filter((scope) => !allowed.has(scope));
  if (granted.length > 0) {
    grant.addResourceScope(resource, granted.join(' '));
  }
  if (refused.length > 0) {
    grant.rejectResourceScope(resource, refused.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    {
      mergeWithLastSubmission: true,
    },
  );
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => done(body));
    req.on('error', fail);
  });
}
