import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import {
  callTool,
  ClientV1,
  ClientV2,
  CLIENT_INFO,
  McpClients,
  type Caller,
} from '../support/mcp-clients';
import { useSampleApp } from '../support/sample-app';
import { CLI } from '../support/sample-process';
import { ALICE, REQUEST, childEnv } from '../support/sample-cli';

/**
 * The order desk's prompt and completers with the official SDK clients
 * (v1 and v2) over HTTP and stdio: a tenant only ever completes its own
 * products and order ids.
 */

const PROMPT = 'draft-restock-order';
const ORDERS_TEMPLATE = { type: 'ref/resource', uri: 'orders://{id}' } as const;
const RESTOCK = { type: 'ref/prompt', name: PROMPT } as const;

type AnyClient = ClientV1 | ClientV2;

describe('the sample prompt and completions over HTTP', () => {
  const sample = useSampleApp();
  let clients: McpClients;
  // Alice's orders: one in globex (not bob's), two in acme (bob's too).
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    clients = new McpClients(sample().baseUrl);
    for (const [tenant, name] of [
      ['globex', 'widget'],
      ['acme', 'wrench'],
      ['acme', 'Washer'],
      ['acme', 'wrench'],
    ]) {
      const alice = await clients.v1({ apiKey: 'dev-alice-key', tenant });
      const created = await callTool(alice, 'orders_create', {
        name,
        amount: 4,
      });
      ids[`${tenant}:${name}`] = created.structuredContent?.id as number;
    }
  });
  afterAll(() => clients.closeAll());

  const versions: [string, (caller: Caller) => Promise<AnyClient>][] = [
    ['v1', (caller) => clients.v1(caller)],
    ['v2', (caller) => clients.v2(caller)],
  ];

  describe.each(versions)('SDK %s', (_version, connect) => {
    it('lists the prompt with its arguments, in the caller language', async () => {
      const bob = await connect({ apiKey: 'dev-bob-key' });
      const { prompts } = await bob.listPrompts();
      expect(prompts).toEqual([
        {
          name: PROMPT,
          title: 'Draft a restock order',
          description: expect.stringContaining('Drafts a restock order'),
          arguments: [
            {
              name: 'product',
              description: 'The product to restock, as orders name it.',
              required: true,
            },
            {
              name: 'urgency',
              description: 'How soon: normal or urgent.',
              required: false,
            },
          ],
        },
      ]);
      const zh = await connect({ apiKey: 'dev-bob-key', language: 'zh-CN' });
      expect((await zh.listPrompts()).prompts[0].title).toBe('起草补货订单');
    });

    it("gets the prompt with arguments, from the caller's tenant", async () => {
      const bob = await connect({ apiKey: 'dev-bob-key', tenant: 'acme' });
      const { messages } = await bob.getPrompt({
        name: PROMPT,
        arguments: { product: 'wrench', urgency: 'urgent' },
      });
      expect(messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'Draft an urgent restock order for "wrench". Tenant acme has ordered it 2 time(s), 8 in all. Propose an amount and a short note for the supplier, then create it with orders_create.',
          },
        },
      ]);
    });

    it('refuses a missing product with -32602 naming it, and an anonymous caller as an unknown prompt', async () => {
      const bob = await connect({ apiKey: 'dev-bob-key' });
      await expect(
        bob.getPrompt({ name: PROMPT, arguments: { urgency: 'soon' } }),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          /VALIDATION_INVALID_001: Invalid input: .*product is required.*urgency/,
        ),
      });
      const anonymous = await connect({});
      await expect(
        anonymous.getPrompt({ name: PROMPT, arguments: { product: 'x' } }),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`Unknown prompt: "${PROMPT}"`),
      });
    });

    it("completes products and order ids from the caller's tenant only", async () => {
      const bob = await connect({ apiKey: 'dev-bob-key', tenant: 'acme' });
      const products = await bob.complete({
        ref: RESTOCK,
        argument: { name: 'product', value: 'w' },
      });
      expect(products.completion).toEqual({
        values: ['Washer', 'wrench'],
        total: 2,
        hasMore: false,
      });
      const orderIds = await bob.complete({
        ref: ORDERS_TEMPLATE,
        argument: { name: 'id', value: '' },
      });
      const acme = [ids['acme:wrench'], ids['acme:Washer']].map(String);
      expect(orderIds.completion.values).toEqual(expect.arrayContaining(acme));
      expect(orderIds.completion.values).not.toContain(
        String(ids['globex:widget']),
      );

      const alice = await connect({
        apiKey: 'dev-alice-key',
        tenant: 'globex',
      });
      expect(
        (
          await alice.complete({
            ref: ORDERS_TEMPLATE,
            argument: { name: 'id', value: '' },
          })
        ).completion.values,
      ).toEqual([String(ids['globex:widget'])]);

      // Bob naming alice's tenant gets nothing of it.
      const intruder = await connect({
        apiKey: 'dev-bob-key',
        tenant: 'globex',
      });
      await expect(
        intruder.complete({
          ref: ORDERS_TEMPLATE,
          argument: { name: 'id', value: '' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
    });

    it('completes urgency from its @IsIn rule with no app code', async () => {
      const bob = await connect({ apiKey: 'dev-bob-key' });
      expect(
        (
          await bob.complete({
            ref: RESTOCK,
            argument: { name: 'urgency', value: 'U' },
          })
        ).completion,
      ).toEqual({ values: ['urgent'], total: 1, hasMore: false });
    });
  });
});

describe('the sample prompt and completions over stdio', () => {
  const stdioVersions: [string, () => Promise<AnyClient>][] = [
    [
      'v1',
      async () => {
        const client = new ClientV1(CLIENT_INFO);
        await client.connect(
          new StdioV1({
            command: process.execPath,
            args: [CLI, 'mcp'],
            env: childEnv({ MCP_AUTHORIZATION: ALICE }),
            stderr: 'pipe',
          }),
          REQUEST,
        );
        return client;
      },
    ],
    [
      'v2',
      async () => {
        const client = new ClientV2(CLIENT_INFO);
        await client.connect(
          new StdioV2({
            command: process.execPath,
            args: [CLI, 'mcp'],
            env: childEnv({ MCP_AUTHORIZATION: ALICE }),
            stderr: 'pipe',
          }),
        );
        return client;
      },
    ],
  ];

  it.each(stdioVersions)(
    'SDK %s: lists and gets the prompt, completes a product and an order id',
    async (_version, connect) => {
      const client = await connect();
      try {
        expect(client.getServerCapabilities()).toMatchObject({
          prompts: { listChanged: false },
          completions: {},
        });
        await client.callTool({
          name: 'orders_create',
          arguments: { name: 'gizmo', amount: 2 },
        });
        const { prompts } = await client.listPrompts();
        expect(prompts.map((prompt) => prompt.name)).toEqual([PROMPT]);
        const { messages } = await client.getPrompt({
          name: PROMPT,
          arguments: { product: 'gizmo' },
        });
        expect(JSON.stringify(messages)).toContain(
          'Tenant default has ordered it 1 time(s), 2 in all.',
        );
        expect(
          (
            await client.complete({
              ref: RESTOCK,
              argument: { name: 'product', value: 'GI' },
            })
          ).completion.values,
        ).toEqual(['gizmo']);
        expect(
          (
            await client.complete({
              ref: ORDERS_TEMPLATE,
              argument: { name: 'id', value: '' },
            })
          ).completion,
        ).toEqual({ values: ['1'], total: 1, hasMore: false });
      } finally {
        await client.close();
      }
    },
  );
});
