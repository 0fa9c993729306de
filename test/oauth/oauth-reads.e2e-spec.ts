import { mcpHttp, rpcRequest } from '../support/mcp-http';
import { SecretNotesService } from '../fixtures/oauth-fixtures';
import { useOAuthNotesApp } from '../support/oauth-notes-app';

/**
 * OAuth mode's challenges for a resource read and a prompt, as for a tool
 * call: no token, 401; a token without the scope, under step-up, 403.
 */

const METADATA_URL =
  'https://notes.example.test/.well-known/oauth-protected-resource/mcp';
const read = (uri: string) => rpcRequest(2, 'resources/read', { uri });
const getPrompt = (name: string) => rpcRequest(3, 'prompts/get', { name });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const { issuer, app } = useOAuthNotesApp(
  { stepUp: true, requireToken: 'forPermission' },
  {},
  SecretNotesService,
);

describe.each([
  ['resources/read', read('notes://secret'), 'Reading notes://secret'],
  ['prompts/get', getPrompt('purge-plan'), 'Getting the prompt purge-plan'],
])('%s in OAuth mode', (_method, message, action) => {
  it('answers an anonymous request 401 with the metadata URL, so that the client logs in', async () => {
    const reply = await mcpHttp(app().baseUrl).post(message);

    expect(reply.status).toBe(401);
    expect(reply.header('www-authenticate')).toBe(
      `Bearer resource_metadata="${METADATA_URL}"`,
    );
    expect(reply.json()).toMatchObject({
      status: 401,
      detail: `${action} needs an access token.`,
    });
  });

  it('answers a token without the scope 403 insufficient_scope, naming it', async () => {
    const token = await issuer().token('bob', 'notes.write');

    const reply = await mcpHttp(app().baseUrl).post(message, bearer(token));

    expect(reply.status).toBe(403);
    expect(reply.header('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="notes.admin", resource_metadata="${METADATA_URL}"`,
    );
    expect(reply.json()).toMatchObject({
      detail: `The access token lacks the scope that ${action[0].toLowerCase()}${action.slice(1)} needs.`,
    });
  });

  it('serves a token with the scope', async () => {
    const token = await issuer().token('alice', 'notes.admin');

    const reply = await mcpHttp(app().baseUrl).post(message, bearer(token));

    expect(reply.status).toBe(200);
    expect(reply.json().result).toBeDefined();
  });
});

it('reads an unknown URI as not found, with no challenge: nothing there needs a token', async () => {
  const reply = await mcpHttp(app().baseUrl).post(read('notes://nothing'));

  expect(reply.status).toBe(200);
  expect(reply.json().error).toMatchObject({
    code: -32002,
    data: { code: 'PROTOCOLS_NOTFOUND_003', uri: 'notes://nothing' },
  });
});
