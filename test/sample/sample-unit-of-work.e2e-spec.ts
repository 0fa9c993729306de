import { QueryLog } from '../fixtures/unit-of-work-fixtures';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import {
  ACCEPT_ALL,
  callerHeaders,
  callTool,
  ClientV1,
  McpClients,
  type ToolOutcome,
} from '../support/mcp-clients';
import { startSampleApp, type RunningSample } from '../support/sample-app';

/**
 * The sample under concurrent load over real MCP and REST on a real
 * database: every call its own transaction (serialised on SQLite's single
 * connection, concurrent on PostgreSQL), the schema from the migrations,
 * tenants bound to each API key.
 */

const ALICE = 'dev-alice-key';
const BOB = 'dev-bob-key';
const ALICE_TENANTS = ['default', 'acme', 'globex', 'initech'];

interface Order {
  readonly id: number;
  readonly tenant: string;
  readonly name: string;
  readonly amount: number;
}

describe.each(DATABASES)('the sample order desk under load ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  let running: RunningSample;
  let clients: McpClients;
  const alice = new Map<string, ClientV1>();

  beforeAll(async () => {
    running = await startSampleApp(db.database);
    clients = new McpClients(running.baseUrl);
    for (const tenant of ALICE_TENANTS) {
      alice.set(
        tenant,
        await clients.v1({ apiKey: ALICE, tenant }, ACCEPT_ALL),
      );
    }
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  beforeEach(() => running.clearOrders());

  function aliceIn(tenant: string): ClientV1 {
    return alice.get(tenant) as ClientV1;
  }

  function restCreate(tenant: string, name: string): Promise<Response> {
    return fetch(`${running.baseUrl}/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...callerHeaders({ apiKey: ALICE, tenant }),
      },
      body: JSON.stringify({ name, amount: 1 }),
    });
  }

  async function storedOrders(): Promise<Order[]> {
    const rows = (await running.dataSource.query(
      'SELECT id, "tenantId", name, amount FROM orders ORDER BY id',
    )) as { id: number; tenantId: string; name: string; amount: number }[];
    return rows.map((row) => ({
      id: Number(row.id),
      tenant: row.tenantId,
      name: row.name,
      amount: row.amount,
    }));
  }

  async function listed(tenant: string): Promise<Order[]> {
    const outcome = await callTool(aliceIn(tenant), 'orders_list', {
      limit: 100,
    });
    expect(outcome.isError, outcome.text).toBe(false);
    expect(outcome.structuredContent?.nextCursor).toBeUndefined();
    return (outcome.structuredContent as { items: Order[] }).items.map(
      ({ id, tenant: owner, name, amount }) => ({
        id,
        tenant: owner,
        name,
        amount,
      }),
    );
  }

  /** Each tenant's `orders_list` is exactly its stored rows, in id (creation) order. */
  async function expectListsMatchStore(count: number): Promise<void> {
    const stored = await storedOrders();
    expect(stored).toHaveLength(count);
    for (const tenant of ALICE_TENANTS) {
      const own = stored.filter((order) => order.tenant === tenant);
      expect(own).toHaveLength(count / ALICE_TENANTS.length);
      expect(await listed(tenant), tenant).toEqual(own);
    }
  }

  it('creates exactly 200 rows from 200 concurrent orders_create calls over MCP from 4 tenants, each under its own tenant', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const tenant = ALICE_TENANTS[i % ALICE_TENANTS.length];
        return callTool(aliceIn(tenant), 'orders_create', {
          name: `${tenant} ${i}`,
          amount: i + 1,
        });
      }),
    );

    const failed = outcomes.filter((outcome) => outcome.isError);
    expect(failed.map((outcome) => outcome.text)).toEqual([]);
    for (const outcome of outcomes) {
      const order = outcome.structuredContent as unknown as Order;
      expect(order.name.startsWith(`${order.tenant} `)).toBe(true);
    }
    await expectListsMatchStore(200);
  });

  it('creates exactly 200 rows from 100 MCP and 100 REST creates mixed', async () => {
    const calls = Array.from({ length: 200 }, async (_, i) => {
      const tenant = ALICE_TENANTS[i % ALICE_TENANTS.length];
      const name = `${tenant} ${i}`;
      if (i % 2 === 0) {
        const outcome = await callTool(aliceIn(tenant), 'orders_create', {
          name,
          amount: 1,
        });
        return outcome.isError ? outcome.text : undefined;
      }
      const response = await restCreate(tenant, name);
      const body = await response.text();
      return response.status === 201 ? undefined : `${response.status} ${body}`;
    });

    expect((await Promise.all(calls)).filter(Boolean)).toEqual([]);
    await expectListsMatchStore(200);
  });

  it('answers ten concurrent orders_delete of one order with exactly one deleted: true and nine BUSINESS_NOTFOUND_001', async () => {
    const created = await callTool(aliceIn('acme'), 'orders_create', {
      name: 'contested',
      amount: 1,
    });
    const { id } = created.structuredContent as unknown as Order;

    const outcomes: ToolOutcome[] = await Promise.all(
      Array.from({ length: 10 }, () =>
        callTool(aliceIn('acme'), 'orders_delete', { id }),
      ),
    );

    const deleted = outcomes.filter((outcome) => !outcome.isError);
    expect(deleted.map((outcome) => outcome.structuredContent)).toEqual([
      { id, deleted: true },
    ]);
    expect(
      outcomes
        .filter((outcome) => outcome.isError)
        .map((outcome) => outcome.text),
    ).toEqual(
      Array.from(
        { length: 9 },
        () => `BUSINESS_NOTFOUND_001: Order ${id} does not exist.`,
      ),
    );
    expect(await storedOrders()).toEqual([]);
  });

  describe('tenants bound to the API key', () => {
    it('refuses alice naming a tenant her key does not hold, on MCP and REST, and writes nothing', async () => {
      const mcp = await clients.v1({ apiKey: ALICE, tenant: 'umbrella' });
      for (const tool of ['orders_create', 'orders_list']) {
        const outcome = await callTool(
          mcp,
          tool,
          tool === 'orders_create' ? { name: 'x', amount: 1 } : {},
        );
        expect(outcome, tool).toMatchObject({
          isError: true,
          text: "SECURITY_DENIED_005: Tenant 'umbrella' is not one of the caller's tenants.",
        });
      }

      const rest = await restCreate('umbrella', 'x');
      expect(rest.status).toBe(403);
      expect(await rest.json()).toMatchObject({
        statusCode: 403,
        message: "Tenant 'umbrella' is not one of the caller's tenants.",
      });
      expect(await storedOrders()).toEqual([]);
    });

    it("does not let bob read another tenant's orders by header, on MCP or REST", async () => {
      const secret = await callTool(aliceIn('globex'), 'orders_create', {
        name: 'globex secret',
        amount: 1,
      });
      expect(secret.isError, secret.text).toBe(false);

      const bob = await clients.v1({ apiKey: BOB, tenant: 'globex' });
      const list = await callTool(bob, 'orders_list');
      expect(list).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_005: Tenant 'globex' is not one of the caller's tenants.",
      });
      const { id } = secret.structuredContent as unknown as Order;
      const get = await callTool(bob, 'orders_get', { id });
      expect(get.text).toMatch(/^SECURITY_DENIED_005: /);

      const rest = await fetch(`${running.baseUrl}/orders`, {
        headers: callerHeaders({ apiKey: BOB, tenant: 'globex' }),
      });
      expect(rest.status).toBe(403);
      expect(JSON.stringify(await rest.json())).not.toContain('globex secret');

      // Without a header, bob is in his first tenant, where nothing is.
      const own = await callTool(
        await clients.v1({ apiKey: BOB }),
        'orders_list',
      );
      expect(own.structuredContent).toEqual({ items: [] });
    });

    it('puts a call without X-Tenant-Id in the first tenant of the key', async () => {
      const created = await callTool(
        await clients.v1({ apiKey: ALICE }),
        'orders_create',
        { name: 'no header', amount: 1 },
      );
      expect(created.structuredContent).toMatchObject({ tenant: 'default' });
      const rest = await restCreate('', 'no header either');
      expect(rest.status).toBe(201);
      expect(await rest.json()).toMatchObject({ tenant: 'default' });
    });

    it('validates the tenant on REST as on MCP: a 300-character tenant is refused (400 / VALIDATION_INVALID_001) and nothing is written', async () => {
      const long = 't'.repeat(300);
      const rest = await restCreate(long, 'too long');
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({
        message: 'X-Tenant-Id must be 1 to 128 visible ASCII characters',
      });
      const mcp = await callTool(
        await clients.v1({ apiKey: ALICE, tenant: long }),
        'orders_create',
        { name: 'too long', amount: 1 },
      );
      expect(mcp).toMatchObject({
        isError: true,
        text: 'VALIDATION_INVALID_001: Invalid input: X-Tenant-Id must be 1 to 128 visible ASCII characters',
      });
      expect(await storedOrders()).toEqual([]);
    });
  });

  it('opens a transaction for orders_create and POST /orders, none for orders_list and GET /orders (TypeORM query logger)', async () => {
    const log = QueryLog.attach(running.dataSource);
    const begin = expect.stringMatching(/^(BEGIN|START TRANSACTION)/i);

    await callTool(aliceIn('acme'), 'orders_list');
    await fetch(`${running.baseUrl}/orders`, {
      headers: callerHeaders({ apiKey: ALICE, tenant: 'acme' }),
    }).then((response) => response.text());
    expect(log.queries.some((query) => /"orders"/.test(query))).toBe(true);
    expect(log.transactionStatements()).toEqual([]);

    await callTool(aliceIn('acme'), 'orders_create', { name: 'a', amount: 1 });
    expect((await restCreate('acme', 'b')).status).toBe(201);
    expect(log.transactionStatements()).toEqual([
      begin,
      'COMMIT',
      begin,
      'COMMIT',
    ]);
  });

  it('has its schema from the migrations, and it is the one the entities describe', async () => {
    const migrations = (await running.dataSource.query(
      'SELECT name FROM migrations',
    )) as { name: string }[];
    expect(migrations.map((row) => row.name)).toEqual([
      'CreateOrders1764489600000',
      'AddDeliverySlot1765000000000',
    ]);
    expect(running.dataSource.options.synchronize).toBe(false);
    const pending = await running.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
