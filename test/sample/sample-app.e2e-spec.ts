import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { startSampleApp, type RunningSample } from '../support/sample-app';
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

/**
 * The sample order desk over real HTTP on 127.0.0.1: the official MCP
 * clients (SDK v1 and v2) talk to `POST /mcp`, the REST controller is called
 * with fetch, and everything lands in a real database.
 */

const BOB = 'dev-bob-key';
const ALICE = 'dev-alice-key';
const TOOL_NAMES = [
  'orders_create',
  'orders_import',
  'orders_list',
  'orders_get',
  'orders_delete',
  'orders_search',
  'orders_label',
  'orders_recent',
  'orders_schedule-delivery',
  'orders_describe',
  'orders_report',
];

type Schema = Record<string, unknown>;

interface ListedTool {
  readonly name: string;
  readonly inputSchema: Schema;
  readonly outputSchema?: Schema;
  readonly annotations?: Schema;
}

interface Order {
  readonly id: number;
  readonly tenant: string;
  readonly name: string;
  readonly amount: number;
  readonly createdAt: string;
}

// The annotations of each kind of tool: read-only (get, list, readOnly: true), schedule-delivery (stated), create, import, delete.
const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
};
const EXPECTED_ANNOTATIONS: Record<string, Schema> = {
  orders_list: READ_ONLY,
  orders_get: READ_ONLY,
  orders_search: READ_ONLY,
  orders_label: READ_ONLY,
  orders_recent: READ_ONLY,
  orders_describe: READ_ONLY,
  orders_report: READ_ONLY,
  'orders_schedule-delivery': {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
  },
  orders_create: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
  },
  // A verb other than create, update or delete: destructive, as MCP assumes.
  orders_import: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
  },
  orders_delete: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
  },
};

// src/orders/dto/list-orders.dto.ts
const PAGE_PROPERTIES = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    description: 'Orders per page, 1 to 100; 50 when absent.',
  },
  cursor: {
    type: 'string',
    description:
      'The nextCursor of the previous page; leave it out for the first page.',
  },
};

// src/orders/dto/order.dto.ts
const ORDER_PROPERTIES = ['amount', 'createdAt', 'id', 'name', 'tenant'];

function toolByName(tools: readonly ListedTool[], name: string): ListedTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new Error(`tools/list has no ${name}`);
  }
  return tool;
}

function sorted(values: unknown): unknown {
  return Array.isArray(values) ? [...values].map(String).sort() : values;
}

/** The checks of the tool list shared by the v1 and v2 clients. */
function expectSampleTools(tools: readonly ListedTool[]): void {
  expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
  for (const tool of tools) {
    expect(tool.annotations, tool.name).toEqual(
      EXPECTED_ANNOTATIONS[tool.name],
    );
    expect(tool.inputSchema.type, tool.name).toBe('object');
    expect(tool.outputSchema?.type, tool.name).toBe('object');
  }

  // CreateOrderDto
  const create = toolByName(tools, 'orders_create').inputSchema;
  expect(create.properties).toEqual({
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'What is ordered, as the order shows it.',
    },
    amount: {
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      description: 'How many: a whole number, at least 1.',
    },
  });
  expect(sorted(create.required)).toEqual(['amount', 'name']);
  expect(create.additionalProperties).toBe(false);

  // ListOrdersDto: a page, every field optional; nothing else is accepted
  expect(toolByName(tools, 'orders_list').inputSchema).toEqual({
    type: 'object',
    properties: PAGE_PROPERTIES,
    additionalProperties: false,
  });

  // OrderIdDto (no maximum: an id beyond the column is not found, not invalid)
  for (const name of ['orders_get', 'orders_delete']) {
    const input = toolByName(tools, name).inputSchema;
    expect(input.properties, name).toEqual({
      id: { type: 'integer', minimum: 1 },
    });
    expect(input.required, name).toEqual(['id']);
    expect(input.additionalProperties, name).toBe(false);
  }

  // SearchOrdersDto: every field optional
  const search = toolByName(tools, 'orders_search').inputSchema;
  expect(search.properties).toEqual({
    ...PAGE_PROPERTIES,
    nameContains: {
      type: 'string',
      maxLength: 200,
      description:
        'Only orders whose name contains this text, in any letter case.',
    },
    minAmount: {
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      description: 'Only orders of at least this amount.',
    },
    order: {
      type: 'string',
      enum: ['oldest', 'newest'],
      description: 'oldest (the default) or newest first.',
    },
  });
  expect(search).not.toHaveProperty('required');
  expect(search.additionalProperties).toBe(false);

  // OrderDto
  for (const name of ['orders_create', 'orders_get']) {
    const output = toolByName(tools, name).outputSchema as Schema;
    expect(Object.keys(output.properties as Schema).sort(), name).toEqual(
      ORDER_PROPERTIES,
    );
    expect(sorted(output.required), name).toEqual(ORDER_PROPERTIES);
    expect(output.additionalProperties, name).toBe(false);
  }

  // OrderListDto: items of OrderDto through $defs, nextCursor when more follow
  for (const name of ['orders_list', 'orders_search']) {
    const output = toolByName(tools, name).outputSchema as Schema;
    expect(output.properties, name).toEqual({
      items: { type: 'array', items: { $ref: '#/$defs/OrderDto' } },
      nextCursor: {
        type: 'string',
        description:
          'Present when more orders follow: pass it as cursor for the next page.',
      },
    });
    expect(output.required, name).toEqual(['items']);
    const defs = output.$defs as Record<string, Schema>;
    expect(Object.keys(defs), name).toEqual(['OrderDto']);
    expect(Object.keys(defs.OrderDto.properties as Schema).sort()).toEqual(
      ORDER_PROPERTIES,
    );
    expect(defs.OrderDto.type).toBe('object');
  }

  // DeletedOrderDto
  expect(toolByName(tools, 'orders_delete').outputSchema).toMatchObject({
    properties: { id: { type: 'integer' }, deleted: { type: 'boolean' } },
  });

  // Every schema is valid JSON Schema 2020-12 (ajv strict).
  for (const tool of tools) {
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      expect(
        () => createStrictAjv().compile(schema as Schema),
        tool.name,
      ).not.toThrow();
    }
  }
}

describe('sample order desk over MCP Streamable HTTP (SQLite)', () => {
  let running: RunningSample;
  let clients: McpClients;
  let tools: readonly ListedTool[];
  const ajv = createStrictAjv();

  beforeAll(async () => {
    running = await startSampleApp('sqlite');
    clients = new McpClients(running.baseUrl);
    const anonymous = await clients.v1();
    tools = (await anonymous.listTools()).tools;
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  beforeEach(() => running.clearOrders());

  /**
   * A v1 client for the caller, with the tool list loaded (output validation
   * on), whose user confirms each orders_delete.
   */
  async function client(caller: Caller): Promise<ClientV1> {
    const connected = await clients.v1(caller, ACCEPT_ALL);
    await connected.listTools();
    return connected;
  }

  /** `blocks`: the JSON text, then any image the tool adds (`orders_label`: 2). */
  function expectConformsToOutputSchema(
    tool: string,
    outcome: ToolOutcome,
    blocks = 1,
  ): void {
    expect(outcome.isError, outcome.text).toBe(false);
    expect(outcome.structuredContent).toBeDefined();
    expect(outcome.contentCount).toBe(blocks);
    expect(outcome.text).toBe(JSON.stringify(outcome.structuredContent));
    const validate = ajv.compile(
      toolByName(tools, tool).outputSchema as Schema,
    );
    expect(
      validate(outcome.structuredContent),
      ajv.errorsText(validate.errors),
    ).toBe(true);
  }

  async function listOrders(mcp: ClientV1): Promise<Order[]> {
    const outcome = await callTool(mcp, 'orders_list');
    expectConformsToOutputSchema('orders_list', outcome);
    return (outcome.structuredContent as { items: Order[] }).items;
  }

  async function createOrder(
    mcp: ClientV1,
    name: string,
    amount: number,
  ): Promise<Order> {
    const outcome = await callTool(mcp, 'orders_create', { name, amount });
    expectConformsToOutputSchema('orders_create', outcome);
    return outcome.structuredContent as unknown as Order;
  }

  it('answers every tool that has an outputSchema with structured content that validates against it (ajv 2020, strict)', async () => {
    const alice = await client({ apiKey: ALICE, tenant: 'acme' });
    const order = await createOrder(alice, 'every tool', 2);
    // In this order: orders_delete removes the order the others read.
    const calls: Record<string, Record<string, unknown>> = {
      orders_create: { name: 'another', amount: 1 },
      orders_import: { orders: [{ name: 'imported', amount: 3 }] },
      orders_list: {},
      orders_get: { id: order.id },
      orders_search: { nameContains: 'every' },
      orders_label: { id: order.id },
      orders_recent: {},
      'orders_schedule-delivery': { id: order.id, slot: 'morning' },
      orders_describe: { id: order.id },
      orders_report: { by: 'name' },
      orders_delete: { id: order.id },
    };
    const withSchema = tools.filter((tool) => tool.outputSchema);
    expect(withSchema.map((tool) => tool.name).sort()).toEqual(
      Object.keys(calls).sort(),
    );

    for (const [tool, args] of Object.entries(calls)) {
      expectConformsToOutputSchema(
        tool,
        await callTool(alice, tool, args),
        tool === 'orders_label' ? 2 : 1,
      );
    }
  });

  describe('SDK v1 client', () => {
    it('initializes: server info and instructions from McpModule.forRoot()', async () => {
      const mcp = await clients.v1({ apiKey: BOB });
      expect(mcp.getServerVersion()).toEqual({
        name: 'order-desk',
        version: '0.1.0',
      });
      expect(mcp.getInstructions()).toBe('Order desk');
      expect(mcp.getServerCapabilities()).toEqual({
        tools: { listChanged: false },
        logging: {},
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      });
    });

    it('lists exactly the eleven order tools with the annotations and DTO schemas', async () => {
      const mcp = await clients.v1({ apiKey: ALICE });
      const listed = await mcp.listTools();
      expect(listed.nextCursor).toBeUndefined();
      expectSampleTools(listed.tools);
    });

    it('lists the same tools to an anonymous caller', () => {
      expectSampleTools(tools);
    });
  });

  describe('SDK v2 client (@modelcontextprotocol/client)', () => {
    it('initializes and lists the same tools', async () => {
      const mcp = await clients.v2({ apiKey: BOB });
      expect(mcp.getServerVersion()).toEqual({
        name: 'order-desk',
        version: '0.1.0',
      });
      expect(mcp.getInstructions()).toBe('Order desk');
      const listed = await mcp.listTools();
      expectSampleTools(listed.tools);
    });
  });

  describe('orders_create and permissions', () => {
    it('denies bob (orders.read only) and writes nothing', async () => {
      const tenant = 'acme';
      const bob = await client({ apiKey: BOB, tenant });
      const outcome = await callTool(bob, 'orders_create', {
        name: 'widget',
        amount: 3,
      });
      expect(outcome).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      });
      expect(outcome.structuredContent).toBeUndefined();
      expect(await listOrders(bob)).toEqual([]);
      const alice = await client({ apiKey: ALICE, tenant });
      expect(await listOrders(alice)).toEqual([]);
    });

    it('creates the order for alice, with structured content that conforms to the output schema', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      const created = await createOrder(alice, 'widget', 3);
      expect(created).toMatchObject({ tenant, name: 'widget', amount: 3 });
      expect(Number.isInteger(created.id)).toBe(true);
      expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);

      const bob = await client({ apiKey: BOB, tenant });
      expect(await listOrders(bob)).toEqual([created]);
    });

    it('lets an anonymous caller list tools but not call orders_create', async () => {
      const tenant = 'default';
      const anonymous = await client({});
      const listed = await anonymous.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(
        [...TOOL_NAMES].sort(),
      );
      const outcome = await callTool(anonymous, 'orders_create', {
        name: 'widget',
        amount: 3,
      });
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toBe(
        'SECURITY_DENIED_003: Authentication is required.',
      );
      const list = await callTool(anonymous, 'orders_list');
      expect(list.isError).toBe(true);
      expect(list.text).toMatch(/^SECURITY_DENIED_003: /);

      const alice = await client({ apiKey: ALICE, tenant });
      expect(await listOrders(alice)).toEqual([]);
    });

    it('answers the REST controller with the same keys: bob 403, alice 201', async () => {
      const tenant = 'acme';
      const post = (apiKey: string) =>
        fetch(`${running.baseUrl}/orders`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...callerHeaders({ apiKey, tenant }),
          },
          body: JSON.stringify({ name: 'rest widget', amount: 7 }),
        });

      const denied = await post(BOB);
      expect(denied.status).toBe(403);
      await denied.body?.cancel();

      const created = await post(ALICE);
      expect(created.status).toBe(201);
      const order = (await created.json()) as Order;
      expect(order).toMatchObject({ tenant, name: 'rest widget', amount: 7 });

      // The order written over REST is the one MCP sees.
      const alice = await client({ apiKey: ALICE, tenant });
      expect(await listOrders(alice)).toEqual([order]);
    });
  });

  describe('orders_list and tenants', () => {
    it("lists the tenant's orders in creation order and hides them from other tenants", async () => {
      const tenantA = 'acme';
      const tenantB = 'globex';
      const aliceA = await client({ apiKey: ALICE, tenant: tenantA });
      const aliceB = await client({ apiKey: ALICE, tenant: tenantB });

      const first = await createOrder(aliceA, 'first', 1);
      const other = await createOrder(aliceB, 'other', 2);
      const second = await createOrder(aliceA, 'second', 3);
      const third = await createOrder(aliceA, 'third', 4);

      expect(await listOrders(aliceA)).toEqual([first, second, third]);
      expect(await listOrders(aliceB)).toEqual([other]);

      // Another tenant's order is not found by id either.
      const foreign = await callTool(aliceB, 'orders_get', { id: first.id });
      expect(foreign.isError).toBe(true);
      expect(foreign.text).toMatch(/^BUSINESS_NOTFOUND_001: /);
    });

    it('takes only limit and cursor on orders_list, as its published schema says', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      const validate = ajv.compile(
        toolByName(tools, 'orders_list').inputSchema as Schema,
      );
      const first = await createOrder(alice, 'first', 1);
      const second = await createOrder(alice, 'second', 2);

      expect(validate({})).toBe(true);
      expect(validate({ limit: 1 })).toBe(true);
      expect(validate({ tenant: 'other' })).toBe(false);
      const page = await callTool(alice, 'orders_list', { limit: 1 });
      expectConformsToOutputSchema('orders_list', page);
      const { items, nextCursor } = page.structuredContent as {
        items: Order[];
        nextCursor: string;
      };
      expect(items).toEqual([first]);
      expect(validate({ limit: 1, cursor: nextCursor })).toBe(true);
      const next = await callTool(alice, 'orders_list', {
        limit: 1,
        cursor: nextCursor,
      });
      expectConformsToOutputSchema('orders_list', next);
      expect(next.structuredContent).toEqual({ items: [second] });

      const outcome = await callTool(alice, 'orders_list', { tenant: 'other' });
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toBe(
        'VALIDATION_INVALID_001: Invalid input: property tenant should not exist',
      );
    });
  });

  describe('orders_get and orders_delete', () => {
    it('gets an order by id and reports a missing one as BUSINESS_NOTFOUND_001', async () => {
      const alice = await client({
        apiKey: ALICE,
        tenant: 'acme',
      });
      const order = await createOrder(alice, 'gadget', 5);
      const found = await callTool(alice, 'orders_get', { id: order.id });
      expectConformsToOutputSchema('orders_get', found);
      expect(found.structuredContent).toEqual(order);

      const missing = await callTool(alice, 'orders_get', {
        id: order.id + 1_000_000,
      });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^BUSINESS_NOTFOUND_001: /);
      expect(missing.structuredContent).toBeUndefined();
    });

    it('deletes an order for alice, after which it is not found; bob may not delete', async () => {
      const tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      const bob = await client({ apiKey: BOB, tenant });
      const order = await createOrder(alice, 'doomed', 2);

      const denied = await callTool(bob, 'orders_delete', { id: order.id });
      expect(denied).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      });
      expect(await listOrders(alice)).toEqual([order]);

      const deleted = await callTool(alice, 'orders_delete', { id: order.id });
      expectConformsToOutputSchema('orders_delete', deleted);
      expect(deleted.structuredContent).toEqual({
        id: order.id,
        deleted: true,
      });

      const gone = await callTool(alice, 'orders_get', { id: order.id });
      expect(gone.isError).toBe(true);
      expect(gone.text).toMatch(/^BUSINESS_NOTFOUND_001: /);
      expect(await listOrders(alice)).toEqual([]);
    });
  });

  describe('orders_import', () => {
    it('creates every order for alice in one call, reporting progress every 10 orders to a client that asks', async () => {
      const alice = await client({ apiKey: ALICE, tenant: 'acme' });
      const orders = Array.from({ length: 25 }, (_, index) => ({
        name: `imported ${index + 1}`,
        amount: index + 1,
      }));
      const progress: Array<{ progress: number; total?: number }> = [];
      const result = await alice.callTool(
        { name: 'orders_import', arguments: { orders } },
        undefined,
        {
          onprogress: ({ progress: value, total }) =>
            progress.push({ progress: value, total }),
        },
      );
      expect(progress).toEqual([
        { progress: 10, total: 25 },
        { progress: 20, total: 25 },
        { progress: 25, total: 25 },
      ]);
      const imported = result.structuredContent as {
        created: number;
        ids: number[];
      };
      expect(imported.created).toBe(25);
      const listed = await listOrders(alice);
      expect(listed.map((order) => order.id)).toEqual(imported.ids);
      expect(listed.map((order) => order.name)).toEqual(
        orders.map((order) => order.name),
      );
    });

    it('sends a debug log message per 10 orders to a client that asks for debug', async () => {
      const alice = await client({ apiKey: ALICE, tenant: 'acme' });
      const logs: Array<{ level: string; data: unknown }> = [];
      alice.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
        logs.push({ level: note.params.level, data: note.params.data });
      });
      await alice.setLoggingLevel('debug');
      const orders = Array.from({ length: 12 }, (_, index) => ({
        name: `logged ${index + 1}`,
        amount: 1,
      }));

      const result = await alice.callTool({
        name: 'orders_import',
        arguments: { orders },
      });

      const { ids } = result.structuredContent as { ids: number[] };
      expect(logs).toEqual([
        {
          level: 'debug',
          data: {
            message: 'orders 1 to 10 saved',
            data: { ids: ids.slice(0, 10) },
          },
        },
        {
          level: 'debug',
          data: {
            message: 'orders 11 to 12 saved',
            data: { ids: ids.slice(10) },
          },
        },
      ]);
    });

    it('creates none when one order is invalid, and none for bob', async () => {
      const alice = await client({ apiKey: ALICE, tenant: 'acme' });
      const invalid = await callTool(alice, 'orders_import', {
        orders: [
          { name: 'fine', amount: 1 },
          { name: 'bad', amount: 0 },
        ],
      });
      expect(invalid.isError).toBe(true);
      expect(invalid.text).toMatch(/^VALIDATION_INVALID_001: /);
      expect(invalid.text).toContain('orders.1.amount');

      const bob = await client({ apiKey: BOB, tenant: 'acme' });
      expect(
        (
          await callTool(bob, 'orders_import', {
            orders: [{ name: 'x', amount: 1 }],
          })
        ).text,
      ).toBe("SECURITY_DENIED_004: Permission 'orders.write' is missing.");
      expect(await listOrders(alice)).toEqual([]);
    });

    it('refuses an empty import and one of more than 10,000 orders', async () => {
      const alice = await client({ apiKey: ALICE, tenant: 'acme' });
      for (const count of [0, 10_001]) {
        const outcome = await callTool(alice, 'orders_import', {
          orders: Array.from({ length: count }, () => ({
            name: 'x',
            amount: 1,
          })),
        });
        expect(outcome.text, String(count)).toMatch(
          /^VALIDATION_INVALID_001: .*orders/,
        );
      }
      expect(await listOrders(alice)).toEqual([]);
    });
  });

  describe('orders_search', () => {
    let tenant: string;
    let bob: ClientV1;
    let small: Order;
    let medium: Order;
    let large: Order;

    beforeEach(async () => {
      tenant = 'acme';
      const alice = await client({ apiKey: ALICE, tenant });
      small = await createOrder(alice, 'small bolt', 1);
      medium = await createOrder(alice, 'medium nut', 5);
      large = await createOrder(alice, 'large bolt', 10);
      bob = await client({ apiKey: BOB, tenant });
    });

    async function search(args: Record<string, unknown>): Promise<Order[]> {
      const outcome = await callTool(bob, 'orders_search', args);
      expectConformsToOutputSchema('orders_search', outcome);
      return (outcome.structuredContent as { items: Order[] }).items;
    }

    it('filters by minAmount and sorts by the order enum', async () => {
      expect(await search({})).toEqual([small, medium, large]);
      expect(await search({ order: 'oldest' })).toEqual([small, medium, large]);
      expect(await search({ order: 'newest' })).toEqual([large, medium, small]);
      expect(await search({ minAmount: 5, order: 'newest' })).toEqual([
        large,
        medium,
      ]);
      expect(await search({ nameContains: 'bolt', limit: 1 })).toEqual([small]);
    });

    it('rejects a value outside the order enum with VALIDATION_INVALID_001 naming the field', async () => {
      const outcome = await callTool(bob, 'orders_search', {
        order: 'sideways',
      });
      expect(outcome.isError, outcome.text).toBe(true);
      expect(outcome.text).toMatch(/^VALIDATION_INVALID_001: .*\border\b/);
    });

    it('rejects a minAmount below the DTO minimum with VALIDATION_INVALID_001 naming the field', async () => {
      const outcome = await callTool(bob, 'orders_search', { minAmount: 0 });
      expect(outcome.isError, outcome.text).toBe(true);
      expect(outcome.text).toMatch(/^VALIDATION_INVALID_001: .*\bminAmount\b/);
    });
  });

  describe('input validation of orders_create', () => {
    it('rejects an amount below 1 and writes nothing', async () => {
      const alice = await client({
        apiKey: ALICE,
        tenant: 'acme',
      });
      const outcome = await callTool(alice, 'orders_create', {
        name: 'free lunch',
        amount: 0,
      });
      expect(outcome.isError, outcome.text).toBe(true);
      expect(outcome.text).toMatch(/^VALIDATION_INVALID_001: .*\bamount\b/);
      expect(await listOrders(alice)).toEqual([]);
    });

    it("rejects unknown properties, so a caller cannot overwrite another tenant's order by id", async () => {
      const victim = await client({ apiKey: ALICE, tenant: 'acme' });
      const attacker = await client({ apiKey: ALICE, tenant: 'globex' });
      const original = await createOrder(victim, 'precious', 9);

      const outcome = await callTool(attacker, 'orders_create', {
        id: original.id,
        name: 'stolen',
        amount: 1,
      });
      expect(outcome.isError, outcome.text).toBe(true);
      expect(outcome.text).toMatch(/^VALIDATION_INVALID_001: .*\bid\b/);
      expect(await listOrders(victim)).toEqual([original]);
    });
  });
});

if (!DATABASES[1].enabled) {
  describe('sample order desk over MCP Streamable HTTP (PostgreSQL)', () => {
    skipUnlessEnabled(DATABASES[1]);
  });
}

describe.runIf(DATABASES[1].enabled)(
  'sample order desk over MCP Streamable HTTP (PostgreSQL)',
  () => {
    let running: RunningSample;
    let clients: McpClients;
    // A schema of its own keeps parallel files and runs apart.
    const tenant = 'acme';

    beforeAll(async () => {
      running = await startSampleApp('postgres');
      clients = new McpClients(running.baseUrl);
    });

    afterAll(async () => {
      await clients?.closeAll();
      await running?.close();
    });

    it('lets alice create orders and list them in creation order; bob is denied', async () => {
      const alice = await clients.v1({ apiKey: ALICE, tenant });
      const { tools } = await alice.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [...TOOL_NAMES].sort(),
      );
      const ajv = createStrictAjv();
      const validateOrder = ajv.compile(
        toolByName(tools, 'orders_create').outputSchema as Schema,
      );
      const validateList = ajv.compile(
        toolByName(tools, 'orders_list').outputSchema as Schema,
      );

      const created: Order[] = [];
      for (const [name, amount] of [
        ['widget', 3],
        ['gizmo', 8],
      ] as const) {
        const outcome = await callTool(alice, 'orders_create', {
          name,
          amount,
        });
        expect(outcome.isError, outcome.text).toBe(false);
        expect(validateOrder(outcome.structuredContent)).toBe(true);
        expect(outcome.text).toBe(JSON.stringify(outcome.structuredContent));
        expect(outcome.structuredContent).toMatchObject({
          tenant,
          name,
          amount,
        });
        created.push(outcome.structuredContent as unknown as Order);
      }

      const bob = await clients.v1({ apiKey: BOB, tenant });
      const denied = await callTool(bob, 'orders_create', {
        name: 'nope',
        amount: 1,
      });
      expect(denied).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      });

      const list = await callTool(bob, 'orders_list');
      expect(list.isError, list.text).toBe(false);
      expect(validateList(list.structuredContent)).toBe(true);
      expect(list.structuredContent).toEqual({ items: created });
    });
  },
);
