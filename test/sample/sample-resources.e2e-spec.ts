import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { startSampleApp, type RunningSample } from '../support/sample-app';
import { stdioV1, stdioV2 } from '../support/sample-stdio-clients';
import { callTool, McpClients } from '../support/mcp-clients';
import { ACCEPT_BOTH, mcpHttp } from '../support/mcp-http';
import { modernHeaders, modernRequest } from '../support/modern-mcp';
import { ALICE, BOB, ROOT } from '../support/sample-cli';

/**
 * The sample's orders as MCP resources (`orders://{id}`, `orders://recent`)
 * with the official SDK clients v1 and v2, over HTTP and over stdio (the
 * sample's `mcp` command), and with the MCP Inspector CLI: a tenant reads
 * only its own orders, and an order of another tenant is not found exactly
 * as an id that does not exist.
 */

const execFileAsync = promisify(execFile);

/** What the two SDK clients have in common for resources. */
type ResourceClient = Pick<
  ClientV1,
  'listResources' | 'listResourceTemplates' | 'readResource'
>;

/** An SDK error reduced to what the wire said. */
async function readError(client: ResourceClient, uri: string) {
  const error = (await client.readResource({ uri }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  expect(error, `reading ${uri} should fail`).toBeDefined();
  return { code: error?.code, message: error?.message, data: error?.data };
}

/** Not found as the v1 client shows it: the 2025 wire's `-32002`, as it came. */
const V1_NOT_FOUND = (uri: string) => ({
  code: -32002,
  message: `MCP error -32002: Resource not found: ${JSON.stringify(uri)}.`,
  data: { code: 'PROTOCOLS_NOTFOUND_003', uri },
});
/**
 * Not found as the v2 client shows it: it takes the wire's `-32002` as its
 * own `ResourceNotFoundError` (`-32602`, `data.uri`).
 */
const V2_NOT_FOUND = (uri: string) => ({
  code: -32602,
  message: `Resource not found: ${JSON.stringify(uri)}.`,
  data: { uri },
});

const RECENT = {
  uri: 'orders://recent',
  name: 'orders_recent',
  title: 'Recent orders',
  description:
    "Returns the 10 newest orders of the caller's tenant, newest first, as items. Needs the orders.read permission.",
  mimeType: 'application/json',
};
const ORDER_TEMPLATE = {
  uriTemplate: 'orders://{id}',
  name: 'orders_get',
  title: 'Get an order',
  description:
    "Returns one order of the caller's tenant by its id (id, tenant, name, amount, createdAt). Fails with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.read permission.",
  mimeType: 'application/json',
};

/** The checks every client runs: lists, alice's reads, bob's not-found. */
async function expectOrderResources(
  alice: ResourceClient,
  bob: ResourceClient,
  orderId: number,
  notFound: (uri: string) => object,
): Promise<void> {
  expect((await alice.listResources()).resources).toEqual([RECENT]);
  expect((await alice.listResourceTemplates()).resourceTemplates).toEqual([
    ORDER_TEMPLATE,
  ]);

  const read = await alice.readResource({ uri: `orders://${orderId}` });
  expect(read.contents).toHaveLength(1);
  const [content] = read.contents as [
    { uri: string; mimeType: string; text: string },
  ];
  expect(content.uri).toBe(`orders://${orderId}`);
  expect(content.mimeType).toBe('application/json');
  expect(JSON.parse(content.text)).toMatchObject({
    id: orderId,
    tenant: 'globex',
    name: 'resource widget',
    amount: 4,
  });

  const recent = await alice.readResource({ uri: 'orders://recent' });
  const items = (
    JSON.parse((recent.contents[0] as { text: string }).text) as {
      items: { id: number }[];
    }
  ).items;
  expect(items.map((item) => item.id)).toEqual([orderId]);

  // Bob's tenant has no such order: the answer is the unknown id's, exactly.
  const missing = 2_000_000;
  const notHis = await readError(bob, `orders://${orderId}`);
  const unknown = await readError(bob, `orders://${missing}`);
  expect(notHis).toEqual(notFound(`orders://${orderId}`));
  expect({
    ...notHis,
    message: String(notHis.message).replace(String(orderId), 'ID'),
    data: { ...(notHis.data as object), uri: 'ID' },
  }).toEqual({
    ...unknown,
    message: String(unknown.message).replace(String(missing), 'ID'),
    data: { ...(unknown.data as object), uri: 'ID' },
  });
  // And bob's recent orders are his tenant's: none.
  const bobsRecent = await bob.readResource({ uri: 'orders://recent' });
  expect(JSON.parse((bobsRecent.contents[0] as { text: string }).text)).toEqual(
    { items: [] },
  );
}

describe('the sample orders as resources over HTTP', () => {
  let running: RunningSample;
  let clients: McpClients;
  let orderId: number;

  beforeAll(async () => {
    running = await startSampleApp('sqlite');
    clients = new McpClients(running.baseUrl);
    const alice = await clients.v1({
      apiKey: 'dev-alice-key',
      tenant: 'globex',
    });
    const created = await callTool(alice, 'orders_create', {
      name: 'resource widget',
      amount: 4,
    });
    orderId = Number(created.structuredContent?.id);
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  it('SDK v1: lists the resource and the template, alice reads, bob does not find', async () => {
    await expectOrderResources(
      await clients.v1({ apiKey: 'dev-alice-key', tenant: 'globex' }),
      await clients.v1({ apiKey: 'dev-bob-key' }),
      orderId,
      V1_NOT_FOUND,
    );
  });

  it('SDK v2: the same', async () => {
    await expectOrderResources(
      await clients.v2({ apiKey: 'dev-alice-key', tenant: 'globex' }),
      await clients.v2({ apiKey: 'dev-bob-key' }),
      orderId,
      V2_NOT_FOUND,
    );
  });

  it('declares resources (without subscribe) in initialize and server/discover', async () => {
    const client = await clients.v1({ apiKey: 'dev-bob-key' });
    expect(client.getServerCapabilities()?.resources).toEqual({
      listChanged: false,
    });
    const discover = await mcpHttp(running.baseUrl).post(
      modernRequest(1, 'server/discover'),
      ACCEPT_BOTH,
      { modern: true },
    );
    expect(
      discover.json<{ result: { capabilities: object } }>().result.capabilities,
    ).toMatchObject({ resources: { listChanged: false } });
  });

  it('2026-07-28: not found is -32602 with data.uri; reads and lists carry cache hints', async () => {
    const http = mcpHttp(running.baseUrl);
    const post = (method: string, params?: Record<string, unknown>) =>
      http.post(
        modernRequest(method, method, params),
        {
          ...ACCEPT_BOTH,
          Authorization: 'ApiKey dev-alice-key',
          'X-Tenant-Id': 'globex',
        },
        { modern: true },
      );
    const missing = await post('resources/read', { uri: 'orders://2000000' });
    expect(missing.status).toBe(200);
    expect(missing.json<{ error: unknown }>().error).toEqual({
      code: -32602,
      message: 'Resource not found: "orders://2000000".',
      data: { code: 'PROTOCOLS_NOTFOUND_003', uri: 'orders://2000000' },
    });
    const read = await post('resources/read', { uri: `orders://${orderId}` });
    expect(read.json<{ result: object }>().result).toMatchObject({
      resultType: 'complete',
      contents: [{ uri: `orders://${orderId}`, mimeType: 'application/json' }],
      cacheScope: 'private',
      ttlMs: expect.any(Number),
    });
    const list = await post('resources/list');
    expect(list.json<{ result: object }>().result).toMatchObject({
      resources: [RECENT],
      // The titles differ in zh-CN: the list depends on who asks.
      cacheScope: 'private',
    });
    // Mcp-Name mirrors the URI, as it mirrors a tool's name.
    const mismatch = await http.post(
      modernRequest(9, 'resources/read', { uri: 'orders://recent' }),
      {
        ...ACCEPT_BOTH,
        ...modernHeaders(
          modernRequest(9, 'resources/read', { uri: 'orders://1' }),
        ),
        Authorization: 'ApiKey dev-alice-key',
      },
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.json<{ error: { code: number } }>().error.code).toBe(
      -32020,
    );
  });

  it('a URI whose id is not an integer, or out of its range, reads as not found; 0 fails validation naming the field', async () => {
    const bob = await clients.v1({ apiKey: 'dev-bob-key' });
    expect(await readError(bob, 'orders://abc')).toMatchObject({
      code: -32002,
      data: { code: 'PROTOCOLS_NOTFOUND_003', uri: 'orders://abc' },
    });
    expect(await readError(bob, 'orders://1/2')).toMatchObject({
      code: -32002,
    });
    expect(await readError(bob, 'orders://0')).toEqual({
      code: -32602,
      message: expect.stringMatching(
        /^MCP error -32602: VALIDATION_INVALID_001: .*id/,
      ),
      data: { code: 'VALIDATION_INVALID_001', uri: 'orders://0' },
    });
  });

  it('zh-CN: the titles and descriptions of the catalogue', async () => {
    const client = await clients.v1({
      apiKey: 'dev-bob-key',
      language: 'zh-CN',
    });
    const { resources } = await client.listResources();
    expect(resources[0]).toMatchObject({
      uri: 'orders://recent',
      title: '最近的订单',
    });
  });

  it('the MCP Inspector CLI lists the resources, templates and prompts, reads an order and gets a prompt', async () => {
    const inspector = (...args: string[]) =>
      execFileAsync(
        'npx',
        [
          '@modelcontextprotocol/inspector',
          '--cli',
          `${running.baseUrl}/mcp`,
          '--transport',
          'http',
          '--header',
          'Authorization: ApiKey dev-alice-key',
          '--header',
          'X-Tenant-Id: globex',
          ...args,
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 30_000,
          // npx runs the devDependency, never a download.
          env: { ...process.env, npm_config_offline: 'true' },
        },
      );
    const listed = JSON.parse(
      (await inspector('--method', 'resources/list')).stdout,
    ) as { resources: object[] };
    expect(listed.resources).toEqual([RECENT]);
    const templates = JSON.parse(
      (await inspector('--method', 'resources/templates/list')).stdout,
    ) as { resourceTemplates: object[] };
    expect(templates.resourceTemplates).toEqual([ORDER_TEMPLATE]);
    const read = JSON.parse(
      (
        await inspector(
          '--method',
          'resources/read',
          '--uri',
          `orders://${orderId}`,
        )
      ).stdout,
    ) as { contents: { text: string }[] };
    expect(JSON.parse(read.contents[0].text)).toMatchObject({ id: orderId });
    const prompts = JSON.parse(
      (await inspector('--method', 'prompts/list')).stdout,
    ) as { prompts: { name: string }[] };
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual([
      'draft-restock-order',
    ]);
    const prompt = JSON.parse(
      (
        await inspector(
          '--method',
          'prompts/get',
          '--prompt-name',
          'draft-restock-order',
          '--prompt-args',
          'product=widget',
        )
      ).stdout,
    ) as { description: string; messages: { role: string }[] };
    expect(prompt.description).toBe('Restock widget');
    expect(prompt.messages[0].role).toBe('user');
    // --strict checks tool schemas only (the Inspector allows it with tools/list).
    const strict = await inspector('--method', 'tools/list', '--strict');
    expect(strict.stderr).not.toMatch(/error/i);
    // Six Inspector processes, one after the other: about 3 s each, 6 s on a busy machine.
  }, 120_000);
});

describe('the sample orders as resources over stdio (the mcp command)', () => {
  /** One database for the processes of a test, so that alice's order is bob's to miss. */
  const sqlite = () => ({
    SQLITE_PATH: join(
      mkdtempSync(join(tmpdir(), 'resources-')),
      'orders.sqlite',
    ),
  });

  it.each([
    ['SDK v1', stdioV1, V1_NOT_FOUND],
    ['SDK v2', stdioV2, V2_NOT_FOUND],
  ] as const)(
    "%s: lists and reads; bob does not find alice's order",
    async (_, connect, notFound) => {
      const env = sqlite();
      const alice = (await connect(
        ['--authorization', ALICE, '--tenant', 'globex'],
        env,
      )) as unknown as ClientV1;
      const bob = (await connect(
        ['--authorization', BOB],
        env,
      )) as unknown as ClientV1;
      try {
        expect(alice.getServerCapabilities()?.resources).toEqual({
          listChanged: false,
        });
        const created = await alice.callTool({
          name: 'orders_create',
          arguments: { name: 'resource widget', amount: 4 },
        });
        const orderId = Number(
          (created.structuredContent as { id: number }).id,
        );
        await expectOrderResources(alice, bob, orderId, notFound);
      } finally {
        await alice.close();
        await bob.close();
      }
    },
  );
});
