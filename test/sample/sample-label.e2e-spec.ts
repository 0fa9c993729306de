import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { CLIENT_INFO, McpClients } from '../support/mcp-clients';
import { useSampleApp } from '../support/sample-app';
import { ALICE, REQUEST, childEnv, runCli } from '../support/sample-cli';
import { CLI } from '../support/sample-process';

/**
 * The sample's `orders_label`: an order as JSON with its delivery label
 * beside it as a PNG (`McpResult`), read by the SDK clients over HTTP and
 * stdio, and printed by the command line's `invoke`.
 */

interface LabelBlock {
  readonly type: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly text?: string;
}

/** The PNG's size and the id its bars say (a tall bar for a 1). */
function readLabel(base64: string): {
  width: number;
  height: number;
  id: number;
} {
  const png = Buffer.from(base64, 'base64');
  expect(png.subarray(0, 8)).toEqual(
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  );
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  const rows = inflateSync(png.subarray(41, 41 + idatLength));
  // Row 20 crosses the tall bars only; one bar per bit, 8 pixels apart from x = 24.
  const row = rows.subarray(20 * (width + 1) + 1, 21 * (width + 1));
  let id = 0;
  for (let bit = 0; bit < 16; bit++) {
    id = id * 2 + (row[24 + bit * 8] === 0 ? 1 : 0);
  }
  return { width, height, id };
}

describe('the sample: orders_label, an order with its label image', () => {
  const sample = useSampleApp();
  let clients: McpClients;
  beforeAll(() => {
    clients = new McpClients(sample().baseUrl);
  });
  afterAll(() => clients.closeAll());

  it.each(['v1', 'v2'] as const)(
    'SDK %s over HTTP: the order as structuredContent, then a PNG whose bars are its id',
    async (version) => {
      const client = await clients[version]({ apiKey: 'dev-alice-key' });
      const created = await client.callTool({
        name: 'orders_create',
        arguments: { name: 'parcel', amount: 2 },
      });
      const order = created.structuredContent as { id: number };
      const result = await client.callTool({
        name: 'orders_label',
        arguments: { id: order.id },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(order);
      const [text, image] = result.content as LabelBlock[];
      expect(JSON.parse(text.text!)).toEqual(order);
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expect(readLabel(image.data!)).toEqual({
        width: 240,
        height: 96,
        id: order.id,
      });
    },
  );

  it('an order the tenant does not have is not found, with no image', async () => {
    const client = await clients.v2({ apiKey: 'dev-alice-key' });
    const result = await client.callTool({
      name: 'orders_label',
      arguments: { id: 999_999 },
    });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^BUSINESS_NOTFOUND_001: /) },
    ]);
  });
});

describe('the sample: orders_label over stdio and on the command line', () => {
  const database = () => ({
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'label-')), 'orders.sqlite'),
  });

  it('SDK v1 over stdio reads the label image', async () => {
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
    try {
      const created = await client.callTool(
        { name: 'orders_create', arguments: { name: 'stdio', amount: 1 } },
        undefined,
        REQUEST,
      );
      const { id } = created.structuredContent as { id: number };
      const result = await client.callTool(
        { name: 'orders_label', arguments: { id } },
        undefined,
        REQUEST,
      );
      const image = (result.content as LabelBlock[])[1];
      expect(image.mimeType).toBe('image/png');
      expect(readLabel(image.data!).id).toBe(id);
    } finally {
      await client.close();
    }
  });

  it('invoke prints the order as JSON on stdout and names the image on stderr', async () => {
    const env = { ...database(), MCP_AUTHORIZATION: ALICE };
    const created = await runCli(
      ['invoke', 'orders.create', '{"name":"cli","amount":1}'],
      env,
    );
    const { id } = JSON.parse(created.stdout) as { id: number };
    const run = await runCli(['invoke', 'orders.label', `{"id":${id}}`], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id, name: 'cli' });
    expect(run.stderr).toMatch(/^image image\/png, \d+ bytes$/m);
  });
});
