import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callTool, CLIENT_INFO } from '../support/mcp-clients';
import { CLI } from '../support/sample-process';
import { stdioV1 } from '../support/sample-stdio-clients';
import { ROOT, ALICE, BOB, REQUEST, childEnv } from '../support/sample-cli';

/** The sample's `mcp` command with the official SDK clients, and the stdio client snippets. */

describe('the sample over stdio with the official SDK clients', () => {
  const v1 = stdioV1;

  it('SDK v1: lists the tools and creates an order as alice (MCP_AUTHORIZATION)', async () => {
    const client = await v1([], { MCP_AUTHORIZATION: ALICE });
    try {
      const { tools } = await client.listTools({}, REQUEST);
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'orders_create',
        'orders_delete',
        'orders_describe',
        'orders_get',
        'orders_import',
        'orders_label',
        'orders_list',
        'orders_recent',
        'orders_report',
        'orders_schedule-delivery',
        'orders_search',
      ]);
      expect(tools.find((t) => t.name === 'orders_create')?.title).toBe(
        'Create an order',
      );
      const created = await callTool(client, 'orders_create', {
        name: 'widget',
        amount: 3,
      });
      expect(created).toMatchObject({
        isError: false,
        structuredContent: { name: 'widget', amount: 3, tenant: 'default' },
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v1: --authorization wins over MCP_AUTHORIZATION; bob is denied', async () => {
    const client = await v1(['--authorization', BOB], {
      MCP_AUTHORIZATION: ALICE,
    });
    try {
      expect(
        await callTool(client, 'orders_create', { name: 'x', amount: 1 }),
      ).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v1: --locale zh-CN gives the Chinese titles and failure texts', async () => {
    const client = await v1(['--locale', 'zh-CN', '--authorization', BOB], {});
    try {
      const { tools } = await client.listTools({}, REQUEST);
      expect(tools.find((t) => t.name === 'orders_create')?.title).toBe(
        '创建订单',
      );
      expect(
        await callTool(client, 'orders_create', { name: 'x', amount: 1 }),
      ).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: 缺少权限 'orders.write'。",
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v2: lists the tools, creates as alice and is denied as bob', async () => {
    for (const [key, denied] of [
      [ALICE, false],
      [BOB, true],
    ] as const) {
      const client = new ClientV2(CLIENT_INFO);
      await client.connect(
        new StdioV2({
          command: process.execPath,
          args: [CLI, 'mcp'],
          env: childEnv({ MCP_AUTHORIZATION: key }),
          stderr: 'pipe',
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(11);
        const result = await client.callTool({
          name: 'orders_create',
          arguments: { name: 'v2', amount: 2 },
        });
        expect(result.isError === true).toBe(denied);
        if (denied) {
          expect((result.content as Array<{ text: string }>)[0].text).toMatch(
            /^SECURITY_DENIED_004: /,
          );
        }
      } finally {
        await client.close();
      }
    }
  });
});

describe('stdio client snippets (examples/stdio)', () => {
  const PLACEHOLDER = '/absolute/path/to/nestops';
  const runs = new Map<string, Promise<void>>();

  /** Starts the server as written and creates an order through it. */
  async function createsAnOrder(server: {
    command: string;
    args: string[];
    env: object;
  }): Promise<void> {
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(
      new StdioV1({
        command: server.command,
        args: server.args,
        // As written, plus a database of the test's own.
        env: childEnv({ ...(server.env as Record<string, string>) }),
        stderr: 'pipe',
      }),
      REQUEST,
    );
    try {
      const created = await callTool(client, 'orders_create', {
        name: 'from the README',
        amount: 1,
      });
      expect(created.isError, created.text).toBe(false);
    } finally {
      await client.close();
    }
  }

  it.each([
    ['claude_desktop_config.json', 'mcpServers'],
    ['cursor-mcp.json', 'mcpServers'],
    ['vscode-mcp.json', 'servers'],
  ])('%s starts the sample as written', async (file, key) => {
    const text = readFileSync(join(ROOT, 'examples/stdio', file), 'utf8');
    expect(text).toContain(PLACEHOLDER);
    const config = JSON.parse(text.replaceAll(PLACEHOLDER, ROOT)) as Record<
      string,
      Record<string, { command: string; args: string[]; env: object }>
    >;
    const server = config[key]['order-desk'];
    // Snippets that write the same server share its run.
    const written = JSON.stringify([server.command, server.args, server.env]);
    let run = runs.get(written);
    if (!run) {
      run = createsAnOrder(server);
      runs.set(written, run);
    }
    await run;
  });
});
