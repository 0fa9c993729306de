import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestBytes, rpcRequest, mcpHttp } from '../support/mcp-http';
import { modernRequest } from '../support/modern-mcp';
import { RecordingLogger } from '../fixtures/outer-auth-fixtures';
import {
  ClosedNotesService,
  NOTES_RESOURCE,
  oauthNotesModule,
} from '../fixtures/oauth-fixtures';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer';
import {
  HTTP_ADAPTERS,
  type NestHttpApplication,
  startApp,
  type RunningApp,
} from '../support/start-app';
import { listedTools } from '../support/tool-lists';

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
let closed: RunningApp;

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
  closed = await startApp(
    oauthNotesModule(
      issuer.issuer,
      { requireToken: 'forPermission' },
      { toolListPerCaller: true },
      ClosedNotesService,
    ),
  );
});

afterAll(async () => {
  await stepUp?.close();
  await perCaller?.close();
  await closed?.close();
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

    const reply = await mcpHttp(stepUp.baseUrl).post(
      call('notes_add'),
      bearer(token),
    );

    expect(reply.json().result).toMatchObject({
      structuredContent: { added: true },
    });
  });

  it('answers a call whose permission the token lacks 403 insufficient_scope, naming the scope', async () => {
    const token = await issuer.token('bob', 'notes:write');

    const reply = await mcpHttp(stepUp.baseUrl).post(
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

    const reply = await mcpHttp(stepUp.baseUrl).post(message, bearer(token), {
      modern: true,
    });

    expect(reply.status).toBe(403);
    expect(reply.header('www-authenticate')).toContain('scope="notes:write"');
  });

  it('refuses a call of an unknown tool as before, not with a challenge', async () => {
    const token = await issuer.token('bob', '');

    const reply = await mcpHttp(stepUp.baseUrl).post(
      call('notes_nope'),
      bearer(token),
    );

    expect(reply.status).toBe(200);
    expect(reply.json().error).toMatchObject({ code: -32602 });
  });
});

describe.each(HTTP_ADAPTERS)('a call the gate refuses, on %s', (on) => {
  const logger = new RecordingLogger();
  let app: RunningApp<NestHttpApplication>;

  beforeAll(async () => {
    app = await startApp(
      oauthNotesModule(issuer.issuer, {
        stepUp: true,
        requireToken: 'forPermission',
      }),
      { on, logger },
    );
  });

  afterAll(() => app?.close());

  /**
   * Sends each request on one connection once the answer before it is in;
   * the answers' statuses, and whether the connection is still open 200 ms
   * after the last.
   */
  async function onOneConnection(
    requests: readonly string[],
  ): Promise<{ statuses: number[]; open: boolean }> {
    const socket = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    let text = '';
    let open = true;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => (open = false));
    socket.on('error', () => undefined);
    /** The status of the first whole answer in `text`, which it takes out. */
    const answer = (): number => {
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
      if (end < 0 || !length || text.length < end + 4 + Number(length[1])) {
        throw new Error(`No whole answer yet: ${JSON.stringify(text)}`);
      }
      const status = Number(text.slice(9, 12));
      text = text.slice(end + 4 + Number(length[1]));
      return status;
    };
    try {
      const statuses: number[] = [];
      for (const request of requests) {
        socket.write(request);
        statuses.push(await vi.waitFor(answer));
      }
      await sleep(200);
      return { statuses, open };
    } finally {
      socket.destroy();
    }
  }

  it.each([
    ['without a token', 401, () => Promise.resolve({})],
    [
      'with a token that lacks its scope',
      403,
      async () => bearer(await issuer.token('bob', 'notes.write')),
    ],
  ])(
    'answers one %s %i, once: nothing else is written, its connection serves on',
    async (_name, status, authorization) => {
      logger.entries.length = 0;

      const outcome = await onOneConnection([
        requestBytes(call('notes_purge'), await authorization()),
        requestBytes(rpcRequest(3, 'tools/list')),
      ]);

      expect(outcome).toEqual({ statuses: [status, 200], open: true });
      expect(logger.errors()).toEqual([]);
    },
  );
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

  it('answers an anonymous tools/list that would be empty with the 401 challenge, so the client logs in', async () => {
    for (const reply of [
      await mcpHttp(closed.baseUrl).post(rpcRequest(1, 'tools/list')),
      await mcpHttp(closed.baseUrl).post(
        modernRequest(1, 'tools/list'),
        {},
        { modern: true },
      ),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.header('www-authenticate')).toBe(
        `Bearer resource_metadata="${METADATA_URL}"`,
      );
      expect(reply.json()).toMatchObject({
        detail:
          'Listing the tools needs an access token: none is open to anonymous callers.',
      });
    }
    // Anonymous initialize is still served; with a token the list is there.
    expect(
      (
        await mcpHttp(closed.baseUrl).post(
          rpcRequest(2, 'initialize', { protocolVersion: '2025-11-25' }),
        )
      ).status,
    ).toBe(200);
    const writer = await issuer.token('alice', 'notes.write');
    expect((await listedTools(closed.baseUrl, bearer(writer))).legacy).toEqual([
      'notes_add',
    ]);
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

    const reply = await mcpHttp(perCaller.baseUrl).post(
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
