import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { mcpHttp, rpcRequest } from '../support/mcp-http';
import { NOTES_RESOURCE, oauthNotesModule } from '../fixtures/oauth-fixtures';
import { startTokenIssuer, type TokenIssuer } from '../support/token-issuer';
import { startApp, type RunningApp } from '../support/start-app';

/**
 * The OAuth rules an attacker would lean on, each against a real app and
 * tokens a real test issuer signed: the algorithm allow-list, `exp`
 * required, scopes that all must be held, an empty scope list granting
 * nothing, an issuer whose metadata names another, step-up for a tool of
 * two permissions, and an app guard's `null` principal or refusal.
 */

const METADATA_URL =
  'https://notes.example.test/.well-known/oauth-protected-resource/mcp';
const MISSING = `Bearer resource_metadata="${METADATA_URL}"`;
const REFUSED = `Bearer error="invalid_token", resource_metadata="${METADATA_URL}"`;

/**
 * `rules.read` (no permission), `rules.write` (`notes.write`),
 * `rules.purge` (`notes.admin`) and `rules.move` (both): each records
 * that it ran; `rules.export` (`notes.export`), not on MCP.
 */
@Injectable()
class RulesNotesService {
  static readonly ran: string[] = [];

  @Operation({ id: 'rules.read', readOnly: true, description: 'Reads.' })
  read(): { read: true } {
    RulesNotesService.ran.push('read');
    return { read: true };
  }

  @Operation({
    id: 'rules.write',
    permission: 'notes.write',
    description: 'Writes.',
  })
  write(): { written: true } {
    RulesNotesService.ran.push('write');
    return { written: true };
  }

  @Operation({
    id: 'rules.purge',
    permission: 'notes.admin',
    description: 'Purges.',
  })
  purge(): { purged: true } {
    RulesNotesService.ran.push('purge');
    return { purged: true };
  }

  @Operation({
    id: 'rules.export',
    permission: 'notes.export',
    expose: ['cli'],
    description: 'Exports, from the command line only.',
  })
  export(): { exported: true } {
    return { exported: true };
  }

  @Operation({
    id: 'rules.move',
    permission: ['notes.write', 'notes.admin'],
    description: 'Moves.',
  })
  move(): { moved: true } {
    RulesNotesService.ran.push('move');
    return { moved: true };
  }
}

const call = (name: string) =>
  rpcRequest(2, 'tools/call', { name, arguments: {} });
const LIST = rpcRequest(1, 'tools/list');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const DENIED = (permission: string) => ({
  isError: true,
  content: [
    {
      type: 'text',
      text: `SECURITY_DENIED_004: Permission '${permission}' is missing.`,
    },
  ],
});

let issuer: TokenIssuer;
const apps: RunningApp[] = [];

async function start(
  ...args: Parameters<typeof oauthNotesModule>
): Promise<RunningApp> {
  const app = await startApp(oauthNotesModule(...args));
  apps.push(app);
  return app;
}

beforeAll(async () => {
  issuer = await startTokenIssuer(NOTES_RESOURCE);
});

afterAll(async () => {
  for (const app of apps) {
    await app.close();
  }
  await issuer?.close();
});

beforeEach(() => {
  RulesNotesService.ran.length = 0;
});

describe('the algorithm allow-list', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await start(
      issuer.issuer,
      { jwt: { algorithms: ['PS256'] } },
      {},
      RulesNotesService,
    );
  });

  it("refuses a token the issuer's own key signed with an algorithm outside oauth.jwt.algorithms", async () => {
    const token = await issuer.token(
      'alice',
      'notes.write',
      {},
      {
        alg: 'RS256',
      },
    );

    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_write'),
      bearer(token),
    );

    expect(reply.status).toBe(401);
    expect(reply.header('www-authenticate')).toBe(REFUSED);
    expect(RulesNotesService.ran).toEqual([]);
  });

  it('serves the same token where the list names its algorithm', async () => {
    const listed = await start(
      issuer.issuer,
      { jwt: { algorithms: ['PS256', 'RS256'] } },
      {},
      RulesNotesService,
    );
    const token = await issuer.token('alice', 'notes.write');

    const reply = await mcpHttp(listed.baseUrl).post(
      call('rules_write'),
      bearer(token),
    );

    expect(reply.json().result).toMatchObject({
      structuredContent: { written: true },
    });
  });
});

describe('exp', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await start(issuer.issuer, {}, {}, RulesNotesService);
  });

  it('refuses a token without exp: a token must expire', async () => {
    const token = await issuer.token('alice', 'notes.write', {
      exp: undefined,
    });

    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_write'),
      bearer(token),
    );

    expect(reply.status).toBe(401);
    expect(reply.header('www-authenticate')).toBe(REFUSED);
    expect(RulesNotesService.ran).toEqual([]);
  });
});

describe('scopesOf', () => {
  let app: RunningApp;

  beforeAll(async () => {
    // notes.write needs two scopes; no scope grants notes.admin.
    app = await start(
      issuer.issuer,
      {
        scopesOf: (permission) =>
          ({ 'notes.write': ['notes:read', 'notes:write'], 'notes.admin': [] })[
            permission
          ] ?? [permission],
      },
      {},
      RulesNotesService,
    );
  });

  it('does not grant a permission of two scopes to a token holding one', async () => {
    for (const scope of ['notes:write', 'notes:read']) {
      const token = await issuer.token('bob', scope);

      const reply = await mcpHttp(app.baseUrl).post(
        call('rules_write'),
        bearer(token),
      );

      expect(reply.json().result).toEqual(DENIED('notes.write'));
    }
    expect(RulesNotesService.ran).toEqual([]);
  });

  it('grants it to a token holding both', async () => {
    const token = await issuer.token('bob', 'notes:write notes:read');

    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_write'),
      bearer(token),
    );

    expect(reply.json().result).toMatchObject({
      structuredContent: { written: true },
    });
  });

  it('grants a permission whose scope list is empty to no token by its scopes', async () => {
    for (const scope of ['', 'notes:write notes:read', 'notes:admin']) {
      const token = await issuer.token('eve', scope);

      const reply = await mcpHttp(app.baseUrl).post(
        call('rules_purge'),
        bearer(token),
      );

      expect(reply.json().result).toEqual(DENIED('notes.admin'));
    }
    expect(RulesNotesService.ran).toEqual([]);
  });

  it('leaves it, and the permissions of operations not on MCP, out of scopes_supported', async () => {
    const response = await fetch(
      `${app.baseUrl}/.well-known/oauth-protected-resource`,
    );

    expect((await response.json()).scopes_supported).toEqual([
      'notes:read',
      'notes:write',
    ]);
  });
});

describe("an issuer whose metadata names another issuer (RFC 8414's mix-up)", () => {
  let mixedUp: TokenIssuer;
  let app: RunningApp;

  beforeAll(async () => {
    mixedUp = await startTokenIssuer(NOTES_RESOURCE);
    mixedUp.metadataIssuer = issuer.issuer;
    app = await start(mixedUp.issuer, {}, {}, RulesNotesService);
  });

  afterAll(() => mixedUp?.close());

  it('is not trusted: its keys are never fetched, its tokens never served', async () => {
    const token = await mixedUp.token('mallory', 'notes.write');

    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_write'),
      bearer(token),
    );

    expect(reply.status).toBe(500);
    expect(reply.json()).toMatchObject({ status: 500 });
    expect(RulesNotesService.ran).toEqual([]);
    expect(mixedUp.requests.map((request) => request.url)).not.toContain(
      '/jwks',
    );
  });
});

describe('step-up for a tool of two permissions', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await start(issuer.issuer, { stepUp: true }, {}, RulesNotesService);
  });

  it('answers a token holding one 403 insufficient_scope naming both scopes', async () => {
    for (const scope of ['notes.write', 'notes.admin']) {
      const token = await issuer.token('bob', scope);

      const reply = await mcpHttp(app.baseUrl).post(
        call('rules_move'),
        bearer(token),
      );

      expect(reply.status).toBe(403);
      expect(reply.header('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", scope="notes.write notes.admin", resource_metadata="${METADATA_URL}"`,
      );
    }
    expect(RulesNotesService.ran).toEqual([]);
  });

  it('serves a token holding both', async () => {
    const token = await issuer.token('carol', 'notes.admin notes.write');

    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_move'),
      bearer(token),
    );

    expect(reply.json().result).toMatchObject({
      structuredContent: { moved: true },
    });
  });
});

/**
 * The app's own guard, by token: `null` sets `request.user = null` and
 * admits; `set-then-refuse` sets a principal of every permission, then
 * throws a `401`.
 */
@Injectable()
class RulesNullishGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string>; user?: unknown }>();
    switch (request.headers.authorization) {
      case undefined:
        return true;
      case 'Bearer null':
        request.user = null;
        return true;
      default:
        request.user = {
          id: 'eve',
          permissions: ['notes.write', 'notes.admin'],
        };
        throw new UnauthorizedException('Unknown token.');
    }
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'rules',
      authGuard: RulesNullishGuard,
      toolListPerCaller: true,
      oauth: {
        resource: NOTES_RESOURCE,
        authorizationServers: ['https://login.example.test'],
        requireToken: 'forPermission',
        stepUp: true,
      },
    }),
  ],
  providers: [
    RulesNotesService,
    RulesNullishGuard,
    { provide: APP_GUARD, useExisting: RulesNullishGuard },
  ],
})
class RulesNullishModule {}

describe("the app guard's principal", () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp(RulesNullishModule);
    apps.push(app);
  });

  it('challenges a call that needs a permission 401 when the guard sets request.user = null', async () => {
    const reply = await mcpHttp(app.baseUrl).post(
      call('rules_write'),
      bearer('null'),
    );

    expect(reply.status).toBe(401);
    expect(reply.header('www-authenticate')).toBe(MISSING);
    expect(RulesNotesService.ran).toEqual([]);
  });

  it('refuses a caller whose guard set request.user and then threw 401: no anonymous tool list', async () => {
    for (const message of [LIST, call('rules_read'), call('rules_move')]) {
      const reply = await mcpHttp(app.baseUrl).post(
        message,
        bearer('set-then-refuse'),
      );

      expect(reply.status).toBe(401);
      expect(reply.header('www-authenticate')).toBe(REFUSED);
      expect(reply.json()).toMatchObject({ status: 401 });
    }
    expect(RulesNotesService.ran).toEqual([]);
  });
});

describe('the verifier, further', () => {
  it('reads the permissions of the claims named by jwt.permissionClaims', async () => {
    const app = await start(
      issuer.issuer,
      { jwt: { permissionClaims: ['roles', 'groups'] } },
      {},
      RulesNotesService,
    );
    const token = await issuer.token('dave', '', {
      roles: ['notes.write', 7],
      groups: 'notes.admin profile',
    });

    for (const tool of ['rules_write', 'rules_purge', 'rules_move']) {
      const reply = await mcpHttp(app.baseUrl).post(call(tool), bearer(token));
      expect(reply.json().result).not.toHaveProperty('isError');
    }
    expect(RulesNotesService.ran).toEqual(['write', 'purge', 'move']);
  });

  it('looks the keys up again once a failed lookup is over: a failure is not cached', async () => {
    const recovering = await startTokenIssuer(NOTES_RESOURCE);
    try {
      recovering.metadataIssuer = 'https://elsewhere.example.test';
      const app = await start(recovering.issuer, {}, {}, RulesNotesService);
      const token = await recovering.token('erin', 'notes.write');
      const post = () =>
        mcpHttp(app.baseUrl).post(call('rules_write'), bearer(token));

      expect((await post()).status).toBe(500);
      recovering.metadataIssuer = undefined;
      const reply = await post();

      expect(reply.json().result).toMatchObject({
        structuredContent: { written: true },
      });
    } finally {
      await recovering.close();
    }
  });

  it("serves the metadata at the resource's own path when it differs from the endpoint's", async () => {
    const app = await start(
      issuer.issuer,
      { resource: 'https://notes.example.test/api/notes' },
      {},
      RulesNotesService,
    );

    for (const path of ['/api/notes', '/mcp', '']) {
      const response = await fetch(
        `${app.baseUrl}/.well-known/oauth-protected-resource${path}`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: 'https://notes.example.test/api/notes',
      });
    }
    const challenge = await mcpHttp(app.baseUrl).post(LIST);
    expect(challenge.header('www-authenticate')).toBe(
      'Bearer resource_metadata="https://notes.example.test/.well-known/oauth-protected-resource/api/notes"',
    );
  });

  it('answers within a bounded wait when the JWKS endpoint hangs: a 500, not a hung call', async () => {
    const hanging = await startTokenIssuer(NOTES_RESOURCE);
    try {
      hanging.hangKeys = true;
      const app = await start(hanging.issuer, {}, {}, RulesNotesService);
      const token = await hanging.token('frank', 'notes.write');
      const started = Date.now();

      const reply = await mcpHttp(app.baseUrl).post(
        call('rules_write'),
        bearer(token),
      );

      expect(reply.status).toBe(500);
      expect(reply.json()).toMatchObject({
        detail: expect.stringContaining('The credentials could not be checked'),
      });
      expect(Date.now() - started).toBeLessThan(9_000);
      expect(RulesNotesService.ran).toEqual([]);
    } finally {
      await hanging.close();
    }
  }, 15_000);
});
