import { DataSource } from 'typeorm';
import {
  PARCEL_PNG,
  Parcel,
  ParcelsModule,
} from '../fixtures/content-fixtures';
import { McpClients } from '../support/mcp-clients';
import { mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * Tool results with images and links beside the JSON (`McpResult`), read by
 * the official SDK clients v1 (2025-11-25) and v2 (2026-07-28) over HTTP.
 */
describe('rich tool results over HTTP', () => {
  const running = useApp(() => startApp(ParcelsModule));
  let clients: McpClients;
  beforeAll(() => {
    clients = new McpClients(running().baseUrl);
  });
  afterAll(() => clients.closeAll());

  const rows = () =>
    running().app.get(DataSource).getRepository(Parcel).count();

  it.each(['v1', 'v2'] as const)(
    'SDK %s: the structured result, its JSON text, then the image (the same bytes) and the link',
    async (version) => {
      const client = await clients[version]();
      const result = await client.callTool({
        name: 'parcels_ship',
        arguments: { region: 'eu-west1', label: `from ${version}` },
      });
      expect(result.isError).toBeFalsy();
      const content = result.content as Array<Record<string, unknown>>;
      const structured = result.structuredContent as { id: number };
      expect(structured).toEqual({ id: structured.id, region: 'eu-west1' });
      expect(content).toEqual([
        { type: 'text', text: JSON.stringify(structured) },
        {
          type: 'image',
          data: PARCEL_PNG.toString('base64'),
          mimeType: 'image/png',
        },
        {
          type: 'resource_link',
          uri: `parcels://${structured.id}/label`,
          name: 'label.pdf',
          mimeType: 'application/pdf',
        },
      ]);
      expect(Buffer.from(content[1].data as string, 'base64')).toEqual(
        PARCEL_PNG,
      );
    },
  );

  it.each(['v1', 'v2'] as const)(
    'SDK %s: an image alone, without structuredContent',
    async (version) => {
      const client = await clients[version]();
      const result = await client.callTool({
        name: 'parcels_photo',
        arguments: {},
      });
      expect(result.content).toEqual([
        {
          type: 'image',
          data: PARCEL_PNG.toString('base64'),
          mimeType: 'image/png',
        },
      ]);
      expect(result.structuredContent).toBeUndefined();
    },
  );

  it('content over MCP_CONTENT_MAX_BYTES fails the call, and what it wrote is rolled back', async () => {
    const before = await rows();
    const result = await mcpHttp(running().baseUrl).callTool(
      'parcels_oversized',
    );
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^INTERNAL_ERROR_001: /);
    expect(await rows()).toBe(before);
  });
});
