import { postMcp, rpcRequest } from './support/mcp-http';
import { modernRequest, postModern } from './support/modern-mcp';
import { NOTES_RESOURCE, oauthNotesModule } from './fixtures/oauth-fixtures';
import { startTokenIssuer, type TokenIssuer } from './support/token-issuer';
import { startApp, type RunningApp } from './support/start-app';
import { listedTools } from './support/tool-lists';

/**
 * OAuth mode's step-up `403 insufficient_scope`, permissions mapped to
 * scopes of another form, and the tool list per caller (the permission
 * part only).
 */

const METADATA_URL =
  'https://notes.example.test/.well-known/oauth-protected-resource/mcp';
const call = (name: string) =>
  rpcRequest(2, 'tools/call', { name, arguments: {} });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let issuer: TokenIssuer;
let stepUp: RunningApp;
let perCaller: RunningApp;

beforeAll(async () => {
  issuer = await startTokenIssuer(NOTES_RESOURCE);
  stepUp = await startApp(
    oauthNotesModule(issuer.issuer, {
      stepUp: true,
      scopesOf: (permission) => [permission.replace('.', ':')],
    }),
  );
  perCaller = await startApp(
    oauthNotesModule(
      issuer.issuer,
      { requireToken: 'forPermission' },
      { toolListPerCaller: true },
    ),
  );
});

afterAll(async () => {
  await stepUp?.close();
  await perCaller?.close();
  await issuer?.close();
});

describe('step-up', () => {
  it('names the mapped scopes in the metadata', async () => {
    const response = await fetch(
      `${stepUp.baseUrl}/.well-known/oauth-protected-resource`,
    );

    expect(await response.json()).toMatchObject({
      scopes_supported: ['notes:admin', 'notes:write'],
    });
  });

  it('serves a call whose permission the scope grants', async () => {
    const token = await issuer.token('alice', 'notes:write');

    const reply = await postMcp(
      stepUp.baseUrl,
      call('notes_add'),
      bearer(token),
    );

    expect(reply.json().result).toMatchObject({
      structuredContent: { added: true },
    });
  });

  it('answers a call whose permission the token lacks 403 insufficient_scope, naming the scope', async () => {
    const token = await issuer.token('bob', 'notes:write');

    const reply = await postMcp(
      stepUp.baseUrl,
      call('notes_purge'),
      bearer(token),
    );

    expect(reply.status).toBe(403);
    expect(reply.header('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="notes:admin", resource_metadata="${METADATA_URL}"`,
    );
    expect(reply.json()).toMatchObject({ status: 403 });
  });

  it('answers a 2026 call the same way', async () => {
    const token = await issuer.token('bob', '');
    const message = modernRequest(3, 'tools/call', {
      name: 'notes_add',
      arguments: {},
    });

    const reply = await postModern(stepUp.baseUrl, message, bearer(token));

    expect(reply.status).toBe(403);
    expect(reply.header('www-authenticate')).toContain('scope="notes:write"');
  });

  it('refuses a call of an unknown tool as before, not with a challenge', async () => {
    const token = await issuer.token('bob', '');

    const reply = await postMcp(
      stepUp.baseUrl,
      call('notes_nope'),
      bearer(token),
    );

    expect(reply.status).toBe(200);
    expect(reply.json().error).toMatchObject({ code: -32602 });
  });
});

describe('tool list per caller', () => {
  const listed = async (headers: Record<string, string> = {}) => {
    const { legacy, modern, cacheScope } = await listedTools(
      perCaller.baseUrl,
      headers,
    );
    return { legacy, modern, cacheScope };
  };

  it('shows an anonymous caller only the tools that need no permission', async () => {
    expect(await listed()).toEqual({
      legacy: ['notes_list'],
      modern: ['notes_list'],
      cacheScope: 'private',
    });
  });

  it("shows a caller the tools its token's scopes reach", async () => {
    const writer = await issuer.token('alice', 'notes.write');
    const admin = await issuer.token('carol', 'notes.write notes.admin');

    expect(await listed(bearer(writer))).toEqual({
      legacy: ['notes_list', 'notes_add'],
      modern: ['notes_add', 'notes_list'],
      cacheScope: 'private',
    });
    expect((await listed(bearer(admin))).modern).toEqual([
      'notes_add',
      'notes_list',
      'notes_purge',
    ]);
  });

  it('refuses a hidden tool called by name exactly as a visible one the caller cannot use', async () => {
    const reader = await issuer.token('bob', 'profile');

    const reply = await postMcp(
      perCaller.baseUrl,
      call('notes_purge'),
      bearer(reader),
    );

    expect(reply.json().result).toEqual({
      content: [
        {
          type: 'text',
          text: "SECURITY_DENIED_004: Permission 'notes.admin' is missing.",
        },
      ],
      isError: true,
    });
  });
});
