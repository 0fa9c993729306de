import { Injectable } from '@nestjs/common';
import { Operation, type InvocationContext } from '@nestops/operations';
import { mcpHttp, rpcRequest } from '../support/mcp-http';
import { NOTES_RESOURCE } from '../fixtures/oauth-fixtures';
import { useOAuthNotesApp } from '../support/oauth-notes-app';

/**
 * The JWT verifier against tokens the trusted issuer really signed whose
 * registered claims have the wrong type: each is refused `401
 * invalid_token` before any call runs, and the principal's id is exactly
 * the token's `sub`.
 */

const METADATA_URL =
  'https://notes.example.test/.well-known/oauth-protected-resource/mcp';
const REFUSED = `Bearer error="invalid_token", resource_metadata="${METADATA_URL}"`;

/** `claims.whoami` (tool `claims_whoami`, needs `notes.write`): records and returns the caller's id. */
@Injectable()
class ClaimsWhoamiService {
  static readonly callers: unknown[] = [];

  @Operation({
    id: 'claims.whoami',
    input: null,
    permission: 'notes.write',
    description: 'Says who calls.',
  })
  whoami(_input: unknown, context: InvocationContext): { id: unknown } {
    const { id } = context.principal as { id: unknown };
    ClaimsWhoamiService.callers.push(id);
    return { id };
  }
}

const WHOAMI = rpcRequest(2, 'tools/call', {
  name: 'claims_whoami',
  arguments: {},
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const { issuer, app } = useOAuthNotesApp({}, {}, ClaimsWhoamiService);

beforeEach(() => {
  ClaimsWhoamiService.callers.length = 0;
});

const later = Math.floor(Date.now() / 1000) + 600;

it.each<[string, Record<string, unknown>]>([
  ['sub an object whose toString is not a function', { sub: { toString: 1 } }],
  ['sub an empty object', { sub: {} }],
  ['sub a number', { sub: 42 }],
  ['sub a list', { sub: ['alice'] }],
  ['sub null', { sub: null }],
  ['sub empty', { sub: '' }],
  ['no sub', { sub: undefined }],
  ['iss a number', { iss: 7 }],
  ['aud an object', { aud: { 0: NOTES_RESOURCE } }],
  ['aud a list holding a number', { aud: [NOTES_RESOURCE, 7] }],
  ['exp a string', { exp: String(later) }],
  ['nbf a string', { nbf: '0' }],
  ['iat a string', { iat: '0' }],
  ['iat null', { iat: null }],
  ['scope a list', { scope: ['notes.write'] }],
  ['scope an object', { scope: { 'notes.write': true } }],
  ['scp an object', { scope: undefined, scp: { 0: 'notes.write' } }],
  [
    'scp a list holding a number',
    { scope: undefined, scp: ['notes.write', 1] },
  ],
])(
  'refuses a signed token with %s: 401 invalid_token, the call never runs',
  async (_, claims) => {
    const token = await issuer().token('alice', 'notes.write', claims);

    const reply = await mcpHttp(app().baseUrl).post(WHOAMI, bearer(token));

    expect(reply.status).toBe(401);
    expect(reply.header('www-authenticate')).toBe(REFUSED);
    expect(reply.json()).toMatchObject({ status: 401 });
    expect(ClaimsWhoamiService.callers).toEqual([]);
  },
);

it.each([
  ['alice', 'alice'],
  ['a sub with spaces', ' bob  smith '],
  ['a sub like a number', '42'],
  ['a sub naming a prototype member', 'toString'],
])('serves %s: the principal id is exactly the token sub', async (_, sub) => {
  const token = await issuer().token(sub, 'notes.write');

  const reply = await mcpHttp(app().baseUrl).post(WHOAMI, bearer(token));

  expect(reply.status).toBe(200);
  expect(reply.json().result).toMatchObject({ structuredContent: { id: sub } });
  expect(ClaimsWhoamiService.callers).toEqual([sub]);
});

it.each<[string, Record<string, unknown>]>([
  [
    'aud a list naming the resource',
    { aud: ['https://x.example.test', NOTES_RESOURCE] },
  ],
  ['scp a list', { scope: undefined, scp: ['notes.write'] }],
  ['scp a string', { scope: undefined, scp: 'profile notes.write' }],
  ['a fractional exp', { exp: later + 0.5 }],
])('serves a token with %s', async (_, claims) => {
  const token = await issuer().token('carol', 'notes.write', claims);

  const reply = await mcpHttp(app().baseUrl).post(WHOAMI, bearer(token));

  expect(reply.json().result).toMatchObject({
    structuredContent: { id: 'carol' },
  });
});
