import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { createServer } from 'node:net';

/** Where the client says it takes the authorization code back; never listened on. */
const REDIRECT_URL = 'http://127.0.0.1:9/callback';

/**
 * An MCP client's OAuth provider, in memory, whose "browser" is a test:
 * `redirectToAuthorization` keeps the URL, and `signIn` follows it over
 * HTTP (the authorization server's login form, as a user would fill it,
 * with its cookies) up to the redirect that carries the code.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  /** Every authorization URL the client was sent to. */
  readonly authorizations: URL[] = [];
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'nestops e2e',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizations.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  /**
   * Signs `user` in at the last authorization URL, by HTTP: the login form
   * posted, every redirect followed with the server's cookies; the
   * query the server sends back to the client (`code`, `state`, `iss`).
   */
  async signIn(user: string, password = user): Promise<URLSearchParams> {
    const start = this.authorizations.at(-1);
    if (!start) {
      throw new Error('The client was not sent to the authorization server.');
    }
    const cookies = new Map<string, string>();
    let url = start;
    let init: RequestInit = {};
    for (let hop = 0; hop < 20; hop += 1) {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location?.startsWith(REDIRECT_URL)) {
        const back = new URL(location).searchParams;
        if (!back.get('code')) {
          throw new Error(`No code came back: ${location}`);
        }
        return back;
      }
      if (location) {
        url = new URL(location, url);
        init = {};
        continue;
      }
      const page = await response.text();
      const form = /<form method="post" action="([^"]+)"/.exec(page);
      if (!form) {
        throw new Error(`HTTP ${response.status} at ${url}: ${page}`);
      }
      url = new URL(form[1], url);
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: user, password }).toString(),
      };
    }
    throw new Error('Too many redirects.');
  }
}

/** A port free on 127.0.0.1 right now, for an app that must know its URL before it listens. */
export function freePort(): Promise<number> {
  return new Promise((found, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        found(typeof address === 'object' && address ? address.port : 0),
      );
    });
  });
}
