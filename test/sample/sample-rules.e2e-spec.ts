import { OperationTestClient } from '@nestops/operations/testing';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { ACCEPT_ALL, callTool, McpClients } from '../support/mcp-clients';
import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { useSampleApp } from '../support/sample-app';

/**
 * Rules of the sample order desk that each held against one broken line:
 * the API key read as a whole header, an unknown key told apart from no
 * key, tenants compared exactly (an anonymous caller holds `default`, a
 * call acts for its invocation context's tenant), a search that takes `\`,
 * `%` and `_` literally, and the top of the id column found.
 * On SQLite and (with DATABASE_URL) PostgreSQL.
 */

const ALICE = 'ApiKey dev-alice-key';
const INT4_MAX = 2_147_483_647;

interface CallResult {
  readonly isError?: boolean;
  readonly content: Array<{ text: string }>;
  readonly structuredContent?: Record<string, unknown>;
}

describe.each(DATABASES)('sample rules ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  const running = useSampleApp(db.database);

  beforeEach(() => running().clearOrders());

  async function call(
    name: string,
    args: Record<string, unknown>,
    headers: Record<string, string> = { authorization: ALICE },
  ): Promise<CallResult> {
    const reply = await mcpHttp(running().baseUrl).post(
      rpcRequest(1, 'tools/call', { name, arguments: args }),
      headers,
    );
    expect(reply.status).toBe(200);
    return reply.json<{ result: CallResult }>().result;
  }

  describe('the API key is the whole Authorization header', () => {
    it.each([
      `${ALICE} trailing`,
      `${ALICE} ApiKey dev-bob-key`,
      `${ALICE}\tx`,
    ])(
      'refuses %j on REST (401) and on /mcp (401, before any call)',
      async (authorization) => {
        const rest = await fetch(`${running().baseUrl}/orders`, {
          headers: { authorization },
        });
        expect(rest.status).toBe(401);

        const mcp = await mcpHttp(running().baseUrl).post(
          rpcRequest(1, 'tools/call', {
            name: 'orders_create',
            arguments: { name: 'x', amount: 1 },
          }),
          { authorization },
        );
        expect(mcp.status).toBe(401);
        const rows: unknown[] = await running().dataSource.query(
          'SELECT id FROM orders',
        );
        expect(rows).toEqual([]);
      },
    );

    it('answers a REST call without the permission 403, naming the permission', async () => {
      const rest = await fetch(`${running().baseUrl}/orders`, {
        method: 'POST',
        headers: {
          authorization: 'ApiKey dev-bob-key',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'x', amount: 1 }),
      });
      expect(rest.status).toBe(403);
      expect(await rest.json()).toMatchObject({
        message: "Permission 'orders.write' is missing.",
      });
    });

    it('refuses an unknown key at once, apart from a missing one', async () => {
      const unknown = await fetch(`${running().baseUrl}/orders`, {
        headers: { authorization: 'ApiKey dev-mallory-key' },
      });
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toMatchObject({
        message: 'Invalid API key.',
      });

      const missing = await fetch(`${running().baseUrl}/orders`);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toMatchObject({
        message: 'Authentication is required.',
      });
    });

    it('lets an anonymous call past ApiKeyGuard (the service method names no permission) to the tenant check', async () => {
      const result = await call('orders_list', {}, { 'x-tenant-id': 'acme' });
      expect(result).toMatchObject({
        isError: true,
        content: [
          {
            text: "SECURITY_DENIED_005: Tenant 'acme' is not one of the caller's tenants.",
          },
        ],
      });
    });

    it('accepts the key itself, with any spacing after the scheme', async () => {
      const rest = await fetch(`${running().baseUrl}/orders`, {
        headers: { authorization: 'ApiKey   dev-alice-key' },
      });
      expect(rest.status).toBe(200);
    });
  });

  describe('tenants are compared exactly', () => {
    it.each(['ACME', 'Acme', 'DEFAULT'])(
      'refuses X-Tenant-Id %j for a key that holds its lower-case form',
      async (tenant) => {
        const rest = await fetch(`${running().baseUrl}/orders`, {
          headers: { authorization: ALICE, 'x-tenant-id': tenant },
        });
        expect(rest.status).toBe(403);

        const result = await call(
          'orders_list',
          {},
          { authorization: ALICE, 'x-tenant-id': tenant },
        );
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toMatch(
          tenant.trim() === tenant
            ? /^SECURITY_DENIED_005: /
            : /^VALIDATION_INVALID_001: /,
        );
      },
    );

    it('lets an anonymous call name the default tenant (refused only for its missing credentials)', async () => {
      const result = await call(
        'orders_list',
        {},
        { 'x-tenant-id': 'default' },
      );
      expect(result).toMatchObject({
        isError: true,
        content: [{ text: 'SECURITY_DENIED_003: Authentication is required.' }],
      });
    });

    it("acts for the call's tenant, the first of repeated X-Tenant-Id values, not their joined text", async () => {
      const alice = OperationTestClient.create(running().app, {
        headers: { Authorization: ALICE, 'X-Tenant-Id': ['globex', 'acme'] },
      });
      const created = await alice.invoke('orders.create', {
        name: 'x',
        amount: 1,
      });
      expect(created).toMatchObject({ ok: true, value: { tenant: 'globex' } });
    });

    it('serves the tenant as the key holds it', async () => {
      const rest = await fetch(`${running().baseUrl}/orders`, {
        headers: { authorization: ALICE, 'x-tenant-id': 'acme' },
      });
      expect(rest.status).toBe(200);
    });
  });

  describe('orders_search takes nameContains literally', () => {
    const NAMES = ['a_b', 'axb', 'a\\b', 'a%b', 'A_B'];

    beforeEach(async () => {
      for (const name of NAMES) {
        const created = await call('orders_create', { name, amount: 1 });
        expect(created.isError, created.content[0].text).toBeUndefined();
      }
    });

    it.each([
      ['_', ['a_b', 'A_B']],
      ['a_', ['a_b', 'A_B']],
      ['\\', ['a\\b']],
      ['%', ['a%b']],
      ['x', ['axb']],
    ])('%j matches %j', async (nameContains, expected) => {
      const result = await call('orders_search', { nameContains });
      const items = (result.structuredContent?.items ?? []) as Array<{
        name: string;
      }>;
      expect(items.map((item) => item.name)).toEqual(expected);
    });
  });

  describe('REST refuses the text the MCP tools refuse', () => {
    async function orderCount(): Promise<number> {
      const [row] = await running().dataSource.query<{ n: number | string }[]>(
        'SELECT COUNT(*) AS n FROM orders',
      );
      return Number(row.n);
    }

    it.each([
      ['a NUL', 'a\u0000b', 'name must not contain NUL characters'],
      [
        'a lone surrogate',
        'a\ud800b',
        'name must be well-formed Unicode (it has a lone surrogate)',
      ],
    ])(
      'POST /orders with %s in name: 400 naming it, as orders_create, nothing written',
      async (_, name, message) => {
        const rest = await fetch(`${running().baseUrl}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: ALICE },
          body: JSON.stringify({ name, amount: 1 }),
        });
        expect(rest.status).toBe(400);
        expect(await rest.json()).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message: [message],
        });

        const mcp = await call('orders_create', { name, amount: 1 });
        expect(mcp.isError).toBe(true);
        expect(mcp.content[0].text).toContain(message);
        expect(await orderCount()).toBe(0);
      },
    );

    it('takes a well-formed surrogate pair and stores it as sent', async () => {
      const name = 'rocket \u{1F680}';
      const rest = await fetch(`${running().baseUrl}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: ALICE },
        body: JSON.stringify({ name, amount: 1 }),
      });
      expect(rest.status).toBe(201);
      expect(await rest.json()).toMatchObject({ name });
      const rows: Array<{ name: string }> = await running().dataSource.query(
        'SELECT name FROM orders',
      );
      expect(rows).toEqual([{ name }]);
    });
  });

  it(`finds the order whose id is ${INT4_MAX}, the top of the column`, async () => {
    await running().dataSource.query(
      `INSERT INTO orders ("id", "tenantId", "name", "amount") VALUES (${INT4_MAX}, 'default', 'top', 5)`,
    );

    const got = await call('orders_get', { id: INT4_MAX });
    expect(got.isError, got.content[0].text).toBeUndefined();
    expect(got.structuredContent).toMatchObject({
      id: INT4_MAX,
      name: 'top',
      amount: 5,
    });

    // The user confirms the delete: an SDK client answers the question.
    const clients = new McpClients(running().baseUrl);
    try {
      const alice = await clients.v1({ apiKey: 'dev-alice-key' }, ACCEPT_ALL);
      const deleted = await callTool(alice, 'orders_delete', { id: INT4_MAX });
      expect(deleted.isError, deleted.text).toBe(false);
    } finally {
      await clients.closeAll();
    }
    const rows: unknown[] = await running().dataSource.query(
      'SELECT id FROM orders',
    );
    expect(rows).toEqual([]);
  });
});
