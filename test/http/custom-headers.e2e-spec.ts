import { DataSource } from 'typeorm';
import { Parcel, ParcelsModule } from '../fixtures/content-fixtures';
import { McpClients } from '../support/mcp-clients';
import { ACCEPT_BOTH, mcpHttp } from '../support/mcp-http';
import { modernRequest } from '../support/modern-mcp';
import { startApp, useApp } from '../support/start-app';

/**
 * SEP-2243's custom headers: `@McpHeader()` marks `region` and `priority`
 * of `parcels_ship` (a call that writes a row) `x-mcp-header`; a 2026 call
 * whose `Mcp-Param-*` headers disagree with its arguments is refused with
 * `400` and `-32020` before it runs, so nothing is written.
 */
describe('Mcp-Param-* headers (SEP-2243) over HTTP', () => {
  const running = useApp(() => startApp(ParcelsModule));
  let clients: McpClients;
  beforeAll(() => {
    clients = new McpClients(running().baseUrl);
  });
  afterAll(() => clients.closeAll());

  const rows = () =>
    running().app.get(DataSource).getRepository(Parcel).count();
  let id = 0;
  /** A 2026 `parcels_ship` call with the standard headers and `params` of its own. */
  const ship = (
    args: Record<string, unknown>,
    headers: Record<string, string>,
  ) =>
    mcpHttp(running().baseUrl).post(
      modernRequest(`ship-${++id}`, 'tools/call', {
        name: 'parcels_ship',
        arguments: { label: 'box', ...args },
      }),
      { ...ACCEPT_BOTH, ...headers },
      { modern: true },
    );

  it('lists the mirrored properties with x-mcp-header', async () => {
    const { tools } = await mcpHttp(running().baseUrl).result<{
      tools: Array<{
        name: string;
        inputSchema: { properties: Record<string, object> };
      }>;
    }>('tools/list');
    const { properties } = tools.find(
      (tool) => tool.name === 'parcels_ship',
    )!.inputSchema;
    expect(properties.region).toMatchObject({
      type: 'string',
      'x-mcp-header': 'Region',
    });
    expect(properties.priority).toMatchObject({
      type: 'integer',
      'x-mcp-header': 'Priority',
    });
    expect(properties.label).not.toHaveProperty('x-mcp-header');
  });

  it('SDK v2 (2026-07-28) mirrors the arguments in the headers itself: the call runs', async () => {
    const before = await rows();
    const client = await clients.v2();
    await client.listTools();
    const result = await client.callTool({
      name: 'parcels_ship',
      arguments: { region: 'Zürich', label: 'v2', priority: 3 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ region: 'Zürich' });
    expect(await rows()).toBe(before + 1);
  });

  it('SDK v1 (2025-11-25, no such headers) is not asked for them', async () => {
    const client = await clients.v1();
    const result = await client.callTool({
      name: 'parcels_ship',
      arguments: { region: 'eu-west1', label: 'v1' },
    });
    expect(result.isError).toBeFalsy();
  });

  it('accepts matching headers, plain and =?base64?...?=', async () => {
    const before = await rows();
    const plain = await ship(
      { region: 'eu-west1', priority: 2 },
      { 'Mcp-Param-Region': 'eu-west1', 'Mcp-Param-Priority': '2' },
    );
    expect(plain.status).toBe(200);
    const encoded = await ship(
      { region: 'Zürich' },
      {
        'Mcp-Param-Region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      },
    );
    expect(encoded.status).toBe(200);
    expect(
      encoded.json<{ result: { isError?: boolean } }>().result.isError,
    ).toBeUndefined();
    expect(await rows()).toBe(before + 2);
  });

  it.each([
    [
      'a header that disagrees with its argument',
      { region: 'eu-west1' },
      { 'Mcp-Param-Region': 'us-east1' },
      'Header mismatch: the Mcp-Param-Region header value "us-east1" does not match the argument region, "eu-west1".',
    ],
    [
      'a missing header',
      { region: 'eu-west1' },
      {},
      'Header mismatch: the Mcp-Param-Region header is missing; it mirrors the argument region.',
    ],
    [
      'a header for an argument not given',
      { region: 'eu-west1' },
      { 'Mcp-Param-Region': 'eu-west1', 'Mcp-Param-Priority': '1' },
      'Header mismatch: the Mcp-Param-Priority header is sent but the argument priority is absent.',
    ],
    [
      'bad base64',
      { region: 'Hello' },
      { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' },
      "Header mismatch: the Mcp-Param-Region header's =?base64?...?= value is not base64 of UTF-8 text.",
    ],
  ])(
    'refuses %s with 400 and -32020, and writes nothing',
    async (_case, args, headers, message) => {
      const before = await rows();
      const answer = await ship(args, headers);
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({
        error: {
          code: -32020,
          message,
          data: { code: 'PROTOCOLS_VALIDATION_006' },
        },
      });
      expect(await rows()).toBe(before);
    },
  );
});
