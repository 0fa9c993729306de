import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { NOTES_RESOURCE, oauthNotesModule } from '../fixtures/oauth-fixtures';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer';
import {
  HTTP_ADAPTERS,
  type NestHttpApplication,
  startApp,
  type RunningApp,
} from '../support/start-app';

/**
 * The MCP endpoint as an OAuth protected resource (RFC 9728), with the
 * library's JWT verifier against a test authorization server on
 * 127.0.0.1 that keeps every request it gets.
 */

const METADATA_URL =
  'https://notes.example.test/.well-known/oauth-protected-resource/mcp';
const MISSING = `Bearer resource_metadata="${METADATA_URL}"`;
const REFUSED = `Bearer error="invalid_token", resource_metadata="${METADATA_URL}"`;

const LIST = rpcRequest(1, 'tools/list');
const call = (name: string) =>
  rpcRequest(2, 'tools/call', { name, arguments: {} });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(HTTP_ADAPTERS)(
  'the MCP endpoint as a protected resource, on %s',
  (on) => {
    let issuer: TokenIssuer;
    let strict: RunningApp<NestHttpApplication>;
    let lenient: RunningApp<NestHttpApplication>;

    beforeAll(async () => {
      issuer = await startTokenIssuer(NOTES_RESOURCE);
      strict = await startApp(
        oauthNotesModule(issuer.issuer, { resourceName: 'Notes' }),
        { on },
      );
      lenient = await startApp(
        oauthNotesModule(issuer.issuer, {
          requireToken: 'forPermission',
          scopesSupported: ['notes.write', 'notes.admin', 'profile'],
          resourceDocumentation: 'https://notes.example.test/docs',
        }),
        { on },
      );
    });

    afterAll(async () => {
      await strict?.close();
      await lenient?.close();
      await issuer?.close();
    });

    describe('protected resource metadata', () => {
      it.each([
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ])(
        'answers GET %s without authentication, cacheable, for any origin',
        async (path) => {
          const response = await fetch(`${strict.baseUrl}${path}`, {
            headers: { origin: 'https://client.example.test' },
          });

          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('application/json');
          expect(response.headers.get('cache-control')).toBe(
            'public, max-age=3600',
          );
          expect(response.headers.get('access-control-allow-origin')).toBe('*');
          expect(await response.text()).toBe(
            JSON.stringify({
              resource: 'https://notes.example.test/mcp',
              authorization_servers: [issuer.issuer],
              scopes_supported: ['notes.admin', 'notes.write'],
              bearer_methods_supported: ['header'],
              resource_name: 'Notes',
            }),
          );
        },
      );

      it('names the given scopes and documentation', async () => {
        const response = await fetch(
          `${lenient.baseUrl}/.well-known/oauth-protected-resource/mcp`,
        );

        expect(await response.json()).toEqual({
          resource: 'https://notes.example.test/mcp',
          authorization_servers: [issuer.issuer],
          scopes_supported: ['notes.write', 'notes.admin', 'profile'],
          bearer_methods_supported: ['header'],
          resource_documentation: 'https://notes.example.test/docs',
        });
      });

      it('answers a browser preflight', async () => {
        const response = await fetch(
          `${strict.baseUrl}/.well-known/oauth-protected-resource/mcp`,
          {
            method: 'OPTIONS',
            headers: {
              origin: 'https://client.example.test',
              'access-control-request-method': 'GET',
              'access-control-request-headers': 'mcp-protocol-version',
            },
          },
        );

        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-allow-headers')).toBe(
          'mcp-protocol-version',
        );
        expect(response.headers.get('access-control-allow-methods')).toBe(
          'GET, OPTIONS',
        );
        expect(response.headers.get('access-control-max-age')).toBe('86400');
        expect(await response.text()).toBe('');
      });

      it('answers a preflight that names no headers: any header allowed', async () => {
        const response = await fetch(
          `${strict.baseUrl}/.well-known/oauth-protected-resource`,
          {
            method: 'OPTIONS',
            headers: {
              origin: 'https://client.example.test',
              'access-control-request-method': 'GET',
            },
          },
        );

        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-headers')).toBe('*');
      });
    });

    describe('challenges, token required always (the default)', () => {
      it('answers a POST without a token 401 with the metadata URL', async () => {
        const reply = await mcpHttp(strict.baseUrl).post(LIST);

        expect(reply.status).toBe(401);
        expect(reply.header('www-authenticate')).toBe(MISSING);
        expect(reply.header('content-type')).toBe('application/problem+json');
        expect(reply.json()).toEqual({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          detail: 'An access token is required.',
        });
      });

      it.each([
        ['another audience', { aud: 'https://other.example.test/mcp' }, {}],
        ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }, {}],
        ['another issuer', { iss: 'https://evil.example.test' }, {}],
        ['signed by an unknown key', {}, { foreignKey: true }],
      ])(
        'refuses a token %s with 401 invalid_token',
        async (_, claims, options) => {
          const token = await issuer.token(
            'alice',
            'notes.write',
            claims,
            options,
          );

          const reply = await mcpHttp(strict.baseUrl).post(LIST, bearer(token));

          expect(reply.status).toBe(401);
          expect(reply.header('www-authenticate')).toBe(REFUSED);
        },
      );

      it('refuses a token that is not a JWT, and another scheme, with 401 invalid_token', async () => {
        for (const authorization of ['Bearer not-a-jwt', 'Basic YTpi']) {
          const reply = await mcpHttp(strict.baseUrl).post(LIST, {
            authorization,
          });

          expect(reply.status).toBe(401);
          expect(reply.header('www-authenticate')).toBe(REFUSED);
        }
      });

      it('serves a valid token: its scopes are the permissions', async () => {
        const token = await issuer.token('alice', 'notes.write');

        const listed = await mcpHttp(strict.baseUrl).post(LIST, bearer(token));
        const added = await mcpHttp(strict.baseUrl).post(
          call('notes_add'),
          bearer(token),
        );
        const purged = await mcpHttp(strict.baseUrl).post(
          call('notes_purge'),
          bearer(token),
        );

        expect(listed.status).toBe(200);
        expect(added.json().result).toMatchObject({
          structuredContent: { added: true },
        });
        expect(purged.json().result).toMatchObject({
          isError: true,
          content: [
            {
              text: "SECURITY_DENIED_004: Permission 'notes.admin' is missing.",
            },
          ],
        });
      });
    });

    describe('challenges, token required for permissions only', () => {
      it('serves anonymous tools/list and calls that need no permission', async () => {
        const listed = await mcpHttp(lenient.baseUrl).post(LIST);
        const open = await mcpHttp(lenient.baseUrl).post(call('notes_list'));

        expect(listed.status).toBe(200);
        expect(open.json().result).toMatchObject({
          structuredContent: { notes: [] },
        });
      });

      it('answers an anonymous call that needs a permission 401, not isError', async () => {
        const reply = await mcpHttp(lenient.baseUrl).post(call('notes_add'));

        expect(reply.status).toBe(401);
        expect(reply.header('www-authenticate')).toBe(MISSING);
      });

      it('still refuses a bad token with 401 invalid_token', async () => {
        const token = await issuer.token(
          'alice',
          'notes.write',
          {},
          { foreignKey: true },
        );

        const reply = await mcpHttp(lenient.baseUrl).post(LIST, bearer(token));

        expect(reply.status).toBe(401);
        expect(reply.header('www-authenticate')).toBe(REFUSED);
      });
    });

    describe('tokens are never passed on', () => {
      it('sent the authorization server only metadata and key requests, without a token', () => {
        const metadata = issuer.requests.filter(
          (request) =>
            request.url === '/.well-known/oauth-authorization-server',
        );
        // Each app located the keys once, and keeps them.
        expect(metadata).toHaveLength(2);
        for (const request of issuer.requests) {
          expect(request.method).toBe('GET');
          expect([
            '/.well-known/oauth-authorization-server',
            '/jwks',
          ]).toContain(request.url);
          expect(request.authorization).toBeUndefined();
          expect(request.body).toBe('');
        }
      });
    });
  },
);
