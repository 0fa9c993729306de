import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv } from '../support/cli-process';
import { CLIENT_INFO } from '../support/mcp-clients';
import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { CLI } from '../support/sample-process';
import { type RunningSample, startSampleApp } from '../support/sample-app';
import { listedTools } from '../support/tool-lists';

/**
 * The sample with API keys and `toolListPerCaller` on: each caller's
 * `tools/list` holds the tools its permissions reach, in each language.
 */

const READ_TOOLS = [
  'orders_describe',
  'orders_get',
  'orders_label',
  'orders_list',
  'orders_recent',
  'orders_report',
  'orders_search',
];
// Alice's writes come on top: orders_create, orders_delete, orders_import,
// orders_schedule-delivery.
const WRITE_TOOLS = ['create', 'delete', 'import', 'schedule-delivery'].map(
  (verb) => `orders_${verb}`,
);
const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS].sort();

let sample: RunningSample;

beforeAll(async () => {
  sample = await startSampleApp('sqlite', {
    env: { MCP_TOOL_LIST_PER_CALLER: 'true' },
  });
});
afterAll(() => sample?.close());

async function listed(headers: Record<string, string>) {
  const list = await listedTools(sample.baseUrl, headers);
  return { ...list, legacy: [...list.legacy].sort() };
}

describe.each(['en-US', 'zh-CN'])('tool list per caller in %s', (language) => {
  const as = (authorization?: string) => ({
    'accept-language': language,
    ...(authorization ? { authorization } : {}),
  });

  it('shows bob (orders.read) no orders_create or orders_delete', async () => {
    const bob = await listed(as('ApiKey dev-bob-key'));

    expect(bob.legacy).toEqual(READ_TOOLS);
    expect(bob.modern).toEqual(READ_TOOLS);
    expect(bob.cacheScope).toBe('private');
  });

  it('shows alice (orders.read, orders.write) every tool', async () => {
    const alice = await listed(as('ApiKey dev-alice-key'));

    expect(alice.legacy).toEqual(ALL_TOOLS);
    expect(alice.modern).toEqual(ALL_TOOLS);
  });

  it('shows an anonymous caller only the operations that need no permission (none here)', async () => {
    expect((await listed(as())).modern).toEqual([]);
  });

  it('lists resources and templates per caller too: bob sees both, an anonymous caller neither', async () => {
    const http = mcpHttp(sample.baseUrl);
    const uris = async (headers: Record<string, string>) => {
      const resources = await http.result<{ resources: { uri: string }[] }>(
        'resources/list',
        {},
        headers,
      );
      const templates = await http.result<{
        resourceTemplates: { uriTemplate: string }[];
      }>('resources/templates/list', {}, headers);
      return [
        ...resources.resources.map((resource) => resource.uri),
        ...templates.resourceTemplates.map((template) => template.uriTemplate),
      ];
    };

    expect(await uris(as('ApiKey dev-bob-key'))).toEqual([
      'orders://recent',
      'orders://{id}',
    ]);
    expect(await uris(as())).toEqual([]);
  });

  it("gives each the titles of the caller's language", async () => {
    const { titles } = await listed(as('ApiKey dev-bob-key'));
    const chinese = titles.every((title) =>
      /[\u4e00-\u9fff]/.test(title ?? ''),
    );

    expect(chinese).toBe(language === 'zh-CN');
  });
});

it("refuses bob's call of the hidden orders_create as before", async () => {
  const reply = await mcpHttp(sample.baseUrl).post(
    rpcRequest(3, 'tools/call', {
      name: 'orders_create',
      arguments: { name: 'x', amount: 1 },
    }),
    { authorization: 'ApiKey dev-bob-key' },
  );

  expect(reply.json().result).toEqual({
    content: [
      {
        type: 'text',
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      },
    ],
    isError: true,
  });
});

describe('over stdio, the list of the --authorization principal', () => {
  async function stdioList(authorization: string): Promise<string[]> {
    const client = new Client(CLIENT_INFO);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--authorization', authorization],
        env: childEnv({
          MCP_TOOL_LIST_PER_CALLER: 'true',
          SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'list-')), 'o.sqlite'),
        }),
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      return tools.map((tool) => tool.name).sort();
    } finally {
      await client.close();
    }
  }

  it("shows bob's tools to a session started as bob", async () => {
    expect(await stdioList('ApiKey dev-bob-key')).toEqual(READ_TOOLS);
  });

  it('shows credentials the guard refuses the anonymous list', async () => {
    expect(await stdioList('ApiKey not-a-key')).toEqual([]);
  });
});
