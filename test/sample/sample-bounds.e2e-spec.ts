import { startSampleApp, type RunningSample } from '../support/sample-app';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import {
  ACCEPT_ALL,
  callerHeaders,
  callTool,
  ClientV1,
  createStrictAjv,
  McpClients,
  type Caller,
  type ToolOutcome,
} from '../support/mcp-clients';
import { ACCEPT_BOTH, mcpHttp } from '../support/mcp-http';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  modernHeaders,
  modernRequest,
} from '../support/modern-mcp';

/**
 * The sample order desk at the edges of its columns and in pages: integers
 * bounded to the `integer` (int4) columns, and `orders_list`,
 * `orders_search` and `GET /orders` paged with `limit` and an opaque
 * `cursor`. The same tests run on SQLite and (with DATABASE_URL) PostgreSQL
 * (in a schema of their own), each test on an empty table.
 */

const ALICE = 'dev-alice-key';
const BOB = 'dev-bob-key';
/** The largest value of a PostgreSQL `integer` (int4) column. */
const INT4_MAX = 2_147_483_647;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

type Schema = Record<string, unknown>;

interface ListedTool {
  readonly name: string;
  readonly inputSchema: Schema;
  readonly outputSchema?: Schema;
}

interface Order {
  readonly id: number;
  readonly tenant: string;
  readonly name: string;
  readonly amount: number;
  readonly createdAt: string;
}

interface Page {
  readonly items: Order[];
  readonly nextCursor?: string;
}

function toolByName(tools: readonly ListedTool[], name: string): ListedTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new Error(`tools/list has no ${name}`);
  }
  return tool;
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** Cursors the server never hands out: not strings, not base64url, or not an order position. */
const MALFORMED_CURSORS: readonly unknown[] = [
  '',
  'not a cursor',
  '***',
  'Mw==', // padded base64
  base64url('0'),
  base64url('-1'),
  base64url('1.5'),
  base64url('01'),
  base64url('abc'),
  base64url(String(INT4_MAX + 1)),
  base64url('9'.repeat(400)),
  'x'.repeat(10_000),
  42,
  ['MQ'],
];

describe.each(DATABASES)('sample bounds and paging ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  let running: RunningSample;
  let clients: McpClients;
  let tools: readonly ListedTool[];
  const ajv = createStrictAjv();

  beforeAll(async () => {
    running = await startSampleApp(db.database);
    clients = new McpClients(running.baseUrl);
    tools = (await (await clients.v1()).listTools()).tools as ListedTool[];
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  beforeEach(() => running.clearOrders());

  async function client(caller: Caller): Promise<ClientV1> {
    // Its user confirms each orders_delete.
    const connected = await clients.v1(caller, ACCEPT_ALL);
    await connected.listTools(); // output validation on
    return connected;
  }

  function expectOutput(tool: string, outcome: ToolOutcome): void {
    expect(outcome.isError, outcome.text).toBe(false);
    const validate = ajv.compile(
      toolByName(tools, tool).outputSchema as Schema,
    );
    expect(
      validate(outcome.structuredContent),
      ajv.errorsText(validate.errors),
    ).toBe(true);
    expect(outcome.text).toBe(JSON.stringify(outcome.structuredContent));
  }

  function expectInvalid(outcome: ToolOutcome, field: string): void {
    expect(outcome.isError, outcome.text).toBe(true);
    expect(outcome.text).toMatch(
      new RegExp(`^VALIDATION_INVALID_001: Invalid input: .*\\b${field}\\b`),
    );
    expect(outcome.structuredContent).toBeUndefined();
  }

  async function createOrder(
    mcp: ClientV1,
    name: string,
    amount: number,
  ): Promise<Order> {
    const outcome = await callTool(mcp, 'orders_create', { name, amount });
    expectOutput('orders_create', outcome);
    return outcome.structuredContent as unknown as Order;
  }

  /** Creates orders over REST (quicker for many), in this order. */
  async function createOrders(
    tenant: string,
    count: number,
    name = (i: number) => `order ${i}`,
  ): Promise<Order[]> {
    const created: Order[] = [];
    for (let i = 1; i <= count; i++) {
      const response = await fetch(`${running.baseUrl}/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...callerHeaders({ apiKey: ALICE, tenant }),
        },
        body: JSON.stringify({ name: name(i), amount: i }),
      });
      expect(response.status).toBe(201);
      created.push((await response.json()) as Order);
    }
    return created;
  }

  async function page(
    mcp: ClientV1,
    tool: 'orders_list' | 'orders_search',
    args: Record<string, unknown>,
  ): Promise<Page> {
    const outcome = await callTool(mcp, tool, args);
    expectOutput(tool, outcome);
    return outcome.structuredContent as unknown as Page;
  }

  /** Follows `nextCursor` to the end; returns the pages' items. */
  async function allPages(
    mcp: ClientV1,
    tool: 'orders_list' | 'orders_search',
    args: Record<string, unknown>,
  ): Promise<Order[][]> {
    const pages: Order[][] = [];
    let cursor: string | undefined;
    do {
      const result = await page(mcp, tool, {
        ...args,
        ...(cursor === undefined ? {} : { cursor }),
      });
      pages.push(result.items);
      cursor = result.nextCursor;
      expect(pages.length).toBeLessThan(100);
    } while (cursor !== undefined);
    return pages;
  }

  /**
   * A `tools/call` whose `arguments` are sent as the given JSON text, so
   * numbers reach the server digit for digit (no client-side rounding).
   */
  async function rawCall(
    tool: string,
    argumentsJson: string,
    caller: Caller,
  ): Promise<{ text: string; isError?: boolean }> {
    const response = await mcpHttp(running.baseUrl).post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${argumentsJson}}}`,
      { ...ACCEPT_BOTH, ...callerHeaders(caller) },
    );
    expect(response.status).toBe(200);
    const body = response.json<{
      result: { content: Array<{ text: string }>; isError?: boolean };
    }>();
    return { text: body.result.content[0].text, isError: body.result.isError };
  }

  /**
   * `rawCall` of a tool that asks the user to confirm, in 2026-07-28: the
   * first answer asks (`input_required`), the second request accepts.
   */
  async function rawConfirmedCall(
    tool: string,
    argumentsJson: string,
    caller: Caller,
  ): Promise<{ text: string; isError?: boolean }> {
    const meta = { ...MODERN_META, [CAPABILITIES_KEY]: { elicitation: {} } };
    const send = async (params: Record<string, unknown>) => {
      const message = modernRequest(
        1,
        'tools/call',
        { name: tool, arguments: 'ARGUMENTS', ...params },
        meta,
      );
      const response = await mcpHttp(running.baseUrl).post(
        JSON.stringify(message).replace('"ARGUMENTS"', argumentsJson),
        { ...modernHeaders(message), ...callerHeaders(caller) },
      );
      expect(response.status).toBe(200);
      return response.json<{ result: Record<string, unknown> }>().result;
    };
    const asking = await send({});
    expect(asking).toMatchObject({
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create' } },
    });
    const answered = (await send({
      inputResponses: { confirm: { action: 'accept' } },
      requestState: asking.requestState,
    })) as { content: Array<{ text: string }>; isError?: boolean };
    return { text: answered.content[0].text, isError: answered.isError };
  }

  describe('published schemas', () => {
    it('bound amount and minAmount to the int4 column', () => {
      const create = toolByName(tools, 'orders_create').inputSchema;
      expect((create.properties as Schema).amount).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: INT4_MAX,
      });
      const search = toolByName(tools, 'orders_search').inputSchema;
      expect((search.properties as Schema).minAmount).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: INT4_MAX,
      });
      const output = toolByName(tools, 'orders_get').outputSchema as Schema;
      expect((output.properties as Schema).amount).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: INT4_MAX,
      });
    });

    it('take limit and cursor on orders_list and orders_search, and answer nextCursor', () => {
      for (const name of ['orders_list', 'orders_search']) {
        const input = toolByName(tools, name).inputSchema;
        expect(input.properties, name).toMatchObject({
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
          cursor: { type: 'string' },
        });
        expect(input, name).not.toHaveProperty('required');
        expect(input.additionalProperties, name).toBe(false);

        const output = toolByName(tools, name).outputSchema as Schema;
        expect(output.properties, name).toMatchObject({
          items: { type: 'array', items: { $ref: '#/$defs/OrderDto' } },
          nextCursor: { type: 'string' },
        });
        expect(Object.keys(output.properties as Schema), name).toEqual([
          'items',
          'nextCursor',
        ]);
        expect(output.required, name).toEqual(['items']);
      }
      expect(
        Object.keys(
          toolByName(tools, 'orders_list').inputSchema.properties as Schema,
        ).sort(),
      ).toEqual(['cursor', 'limit']);
    });
  });

  describe('integers beyond the int4 column', () => {
    it('rejects an amount above 2147483647 on orders_create with VALIDATION_INVALID_001 and writes nothing', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      for (const amount of [INT4_MAX + 1, 1e20, Number.MAX_SAFE_INTEGER]) {
        const outcome = await callTool(alice, 'orders_create', {
          name: 'too much',
          amount,
        });
        expectInvalid(outcome, 'amount');
        expect(outcome.text).toBe(
          'VALIDATION_INVALID_001: Invalid input: amount must not be greater than 2147483647',
        );
      }
      // Digit for digit: 9007199254740993 is not a double; the server must not round it.
      for (const amount of ['9007199254740993', '2147483648', '1e20']) {
        const outcome = await rawCall(
          'orders_create',
          `{"name":"too much","amount":${amount}}`,
          { apiKey: ALICE, tenant },
        );
        expect(outcome).toEqual({
          isError: true,
          text: 'VALIDATION_INVALID_001: Invalid input: amount must not be greater than 2147483647',
        });
      }
      expect((await page(alice, 'orders_list', {})).items).toEqual([]);
    });

    it('stores 2147483647 exactly and finds it with minAmount 2147483647', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      const small = await createOrder(alice, 'small', 1);
      const largest = await createOrder(alice, 'largest', INT4_MAX);
      expect(largest.amount).toBe(INT4_MAX);

      const got = await callTool(alice, 'orders_get', { id: largest.id });
      expectOutput('orders_get', got);
      expect(got.structuredContent).toEqual(largest);
      expect(
        (await page(alice, 'orders_search', { minAmount: INT4_MAX })).items,
      ).toEqual([largest]);
      expect((await page(alice, 'orders_list', {})).items).toEqual([
        small,
        largest,
      ]);
    });

    it('rejects a minAmount above 2147483647 on orders_search with VALIDATION_INVALID_001', async () => {
      const bob = await client({ apiKey: BOB, tenant: 'acme' });
      for (const minAmount of [INT4_MAX + 1, 1e20]) {
        const outcome = await callTool(bob, 'orders_search', { minAmount });
        expectInvalid(outcome, 'minAmount');
        expect(outcome.text).toBe(
          'VALIDATION_INVALID_001: Invalid input: minAmount must not be greater than 2147483647',
        );
      }
      const outcome = await rawCall(
        'orders_search',
        '{"minAmount":9007199254740993}',
        { apiKey: BOB },
      );
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toBe(
        'VALIDATION_INVALID_001: Invalid input: minAmount must not be greater than 2147483647',
      );
    });

    it('answers orders_get and orders_delete for an id above 2147483647 with BUSINESS_NOTFOUND_001', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      const kept = await createOrder(alice, 'kept', 4);
      for (const tool of ['orders_get', 'orders_delete']) {
        for (const id of [INT4_MAX + 1, 1e20, Number.MAX_SAFE_INTEGER]) {
          const outcome = await callTool(alice, tool, { id });
          expect(outcome.isError, `${tool} ${id}`).toBe(true);
          expect(outcome.text, `${tool} ${id}`).toMatch(
            /^BUSINESS_NOTFOUND_001: /,
          );
          expect(outcome.structuredContent).toBeUndefined();
        }
        const exact = await callTool(alice, tool, { id: INT4_MAX + 1 });
        expect(exact.text).toBe(
          'BUSINESS_NOTFOUND_001: Order 2147483648 does not exist.',
        );
        const raw = await (
          tool === 'orders_delete' ? rawConfirmedCall : rawCall
        )(tool, '{"id":9007199254740993}', { apiKey: ALICE, tenant });
        expect(raw.isError).toBe(true);
        expect(raw.text).toMatch(/^BUSINESS_NOTFOUND_001: /);
      }
      // The largest id a column can hold is an ordinary miss.
      const top = await callTool(alice, 'orders_get', { id: INT4_MAX });
      expect(top.text).toBe(
        'BUSINESS_NOTFOUND_001: Order 2147483647 does not exist.',
      );
      expect((await page(alice, 'orders_list', {})).items).toEqual([kept]);
    });
  });

  describe('paging of orders_list', () => {
    it('pages in creation order with limit and nextCursor, and stops without nextCursor', async () => {
      const tenant = 'acme';
      const bob = await client({ apiKey: BOB, tenant });
      const orders = await createOrders(tenant, 5);

      const first = await page(bob, 'orders_list', { limit: 2 });
      expect(first.items).toEqual(orders.slice(0, 2));
      expect(typeof first.nextCursor).toBe('string');
      const second = await page(bob, 'orders_list', {
        limit: 2,
        cursor: first.nextCursor,
      });
      expect(second.items).toEqual(orders.slice(2, 4));
      const third = await page(bob, 'orders_list', {
        limit: 2,
        cursor: second.nextCursor,
      });
      expect(third).toEqual({ items: orders.slice(4) });

      // A limit that ends exactly at the last order: no nextCursor.
      expect(await page(bob, 'orders_list', { limit: 5 })).toEqual({
        items: orders,
      });
      expect(await allPages(bob, 'orders_list', { limit: 1 })).toEqual(
        orders.map((order) => [order]),
      );
    });

    it(`returns ${DEFAULT_LIMIT} orders without a limit, and at most ${MAX_LIMIT}`, async () => {
      const tenant = 'acme';
      const bob = await client({ apiKey: BOB, tenant });
      const orders = await createOrders(tenant, MAX_LIMIT + 1);

      const first = await page(bob, 'orders_list', {});
      expect(first.items).toEqual(orders.slice(0, DEFAULT_LIMIT));
      expect(first.nextCursor).toEqual(expect.any(String));
      const rest = await page(bob, 'orders_list', {
        cursor: first.nextCursor,
        limit: MAX_LIMIT,
      });
      expect(rest).toEqual({ items: orders.slice(DEFAULT_LIMIT) });

      const most = await page(bob, 'orders_list', { limit: MAX_LIMIT });
      expect(most.items).toEqual(orders.slice(0, MAX_LIMIT));
      expect(most.nextCursor).toEqual(expect.any(String));
    });

    it('rejects a limit outside 1..100 or not an integer with VALIDATION_INVALID_001', async () => {
      const bob = await client({ apiKey: BOB, tenant: 'acme' });
      for (const tool of ['orders_list', 'orders_search']) {
        for (const limit of [0, -1, MAX_LIMIT + 1, 1.5, '10', INT4_MAX + 1]) {
          expectInvalid(await callTool(bob, tool, { limit }), 'limit');
        }
      }
    });

    it('rejects a malformed cursor with VALIDATION_INVALID_001 naming cursor', async () => {
      const tenant = 'acme';
      const bob = await client({ apiKey: BOB, tenant });
      await createOrders(tenant, 1);
      for (const tool of ['orders_list', 'orders_search']) {
        for (const cursor of MALFORMED_CURSORS) {
          const outcome = await callTool(bob, tool, { cursor });
          expect(outcome.isError, `${tool} ${JSON.stringify(cursor)}`).toBe(
            true,
          );
          expect(outcome.text).toMatch(
            /^VALIDATION_INVALID_001: Invalid input: .*\bcursor\b/,
          );
        }
        // null is absent, as for every optional field (@IsOptional()): the first page.
        const firstPage = (await callTool(bob, tool, {})).structuredContent;
        for (const args of [{ cursor: null }, { limit: null, cursor: null }]) {
          const nulled = await callTool(bob, tool, args);
          expect(nulled.isError, nulled.text).toBe(false);
          expect(nulled.structuredContent).toEqual(firstPage);
        }
      }
    });

    it('still rejects unknown properties, as the published schema says', async () => {
      const bob = await client({ apiKey: BOB, tenant: 'acme' });
      const validate = ajv.compile(
        toolByName(tools, 'orders_list').inputSchema as Schema,
      );
      expect(validate({})).toBe(true);
      expect(validate({ limit: 2, cursor: 'MQ' })).toBe(true);
      expect(validate({ tenant: 'other' })).toBe(false);
      expect(validate({ offset: 2 })).toBe(false);
      for (const args of [{ tenant: 'other' }, { offset: 2 }]) {
        const outcome = await callTool(bob, 'orders_list', args);
        expect(outcome.isError).toBe(true);
        expect(outcome.text).toBe(
          `VALIDATION_INVALID_001: Invalid input: property ${Object.keys(args)[0]} should not exist`,
        );
      }
    });

    it("keeps tenants apart: a page holds only the tenant's orders, whatever the cursor", async () => {
      const tenantA = 'acme';
      const tenantB = 'globex';
      const aliceA = await client({ apiKey: ALICE, tenant: tenantA });
      const aliceB = await client({ apiKey: ALICE, tenant: tenantB });
      const a: Order[] = [];
      const b: Order[] = [];
      for (let i = 0; i < 3; i++) {
        a.push(await createOrder(aliceA, `a${i}`, 1));
        b.push(await createOrder(aliceB, `b${i}`, 1));
      }

      expect(await allPages(aliceA, 'orders_list', { limit: 2 })).toEqual([
        a.slice(0, 2),
        a.slice(2),
      ]);
      expect(await allPages(aliceB, 'orders_list', { limit: 2 })).toEqual([
        b.slice(0, 2),
        b.slice(2),
      ]);

      // A's cursor in B's hands pages through B's orders, never A's.
      const fromA = await page(aliceA, 'orders_list', { limit: 1 });
      const crossed = await page(aliceB, 'orders_list', {
        cursor: fromA.nextCursor,
      });
      expect(crossed.items).toEqual(b.filter((order) => order.id > a[0].id));
      expect(crossed.nextCursor).toBeUndefined();
    });
  });

  describe('paging of orders_search', () => {
    let tenant: string;
    let bob: ClientV1;
    let orders: Order[];

    beforeEach(async () => {
      tenant = 'acme';
      bob = await client({ apiKey: BOB, tenant });
      // amounts 1..7; names: odd ones are bolts
      orders = await createOrders(tenant, 7, (i) =>
        i % 2 === 1 ? `bolt ${i}` : `nut ${i}`,
      );
    });

    it('pages the matches oldest first', async () => {
      const bolts = orders.filter((order) => order.name.startsWith('bolt'));
      expect(
        await allPages(bob, 'orders_search', {
          nameContains: 'bolt',
          limit: 3,
        }),
      ).toEqual([bolts.slice(0, 3), bolts.slice(3)]);
      expect(
        await allPages(bob, 'orders_search', {
          minAmount: 3,
          order: 'oldest',
          limit: 2,
        }),
      ).toEqual([orders.slice(2, 4), orders.slice(4, 6), orders.slice(6)]);
    });

    it('pages the matches newest first', async () => {
      const newest = [...orders].reverse();
      expect(
        await allPages(bob, 'orders_search', { order: 'newest', limit: 3 }),
      ).toEqual([newest.slice(0, 3), newest.slice(3, 6), newest.slice(6)]);
      expect(
        await allPages(bob, 'orders_search', {
          order: 'newest',
          nameContains: 'nut',
          limit: 2,
        }),
      ).toEqual([[orders[5], orders[3]], [orders[1]]]);
    });

    it(`returns up to ${DEFAULT_LIMIT} matches without a limit`, async () => {
      expect(await page(bob, 'orders_search', {})).toEqual({ items: orders });
    });
  });

  describe('REST GET /orders', () => {
    const get = (tenant: string, query = '') =>
      fetch(`${running.baseUrl}/orders${query}`, {
        headers: callerHeaders({ apiKey: BOB, tenant }),
      });

    it('pages as orders_list does', async () => {
      const tenant = 'acme';
      const orders = await createOrders(tenant, 3);
      const bob = await client({ apiKey: BOB, tenant });

      const first = await get(tenant, '?limit=2');
      expect(first.status).toBe(200);
      const body = (await first.json()) as Page;
      expect(body).toEqual(await page(bob, 'orders_list', { limit: 2 }));
      expect(body.items).toEqual(orders.slice(0, 2));

      const second = await get(
        tenant,
        `?limit=2&cursor=${encodeURIComponent(body.nextCursor ?? '')}`,
      );
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual({ items: orders.slice(2) });

      const all = await get(tenant);
      expect(await all.json()).toEqual({ items: orders });
    });

    it('answers 400 for a bad limit, a malformed cursor or an unknown parameter', async () => {
      const tenant = 'acme';
      for (const query of [
        '?limit=0',
        '?limit=101',
        '?limit=abc',
        '?limit=1.5',
        '?limit=',
        `?limit=${INT4_MAX + 1}`,
        '?cursor=not%20a%20cursor',
        `?cursor=${base64url('0')}`,
        '?cursor=a&cursor=b',
        '?limit=1&limit=2',
        '?offset=3',
      ]) {
        const response = await get(tenant, query);
        expect(response.status, query).toBe(400);
        await response.body?.cancel();
      }
    });
  });
});
