import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nestops/mcp';
import { McpTestClient } from '@nestops/mcp/testing';
import { rolesAppModule } from '../fixtures/roles-fixtures';
import { rpcRequest, mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * An app whose guard sets roles, not permissions: `permissionsOf` maps
 * them for calls, per-caller tool lists and the testing kit alike;
 * `requireToken` challenges anonymous callers; the kit lists tools as the
 * same credentials get them over HTTP.
 */

const AGENT = { authorization: 'ApiKey agent-key' };
const SUPERVISOR = { authorization: 'ApiKey supervisor-key' };

async function toolNames(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<string[]> {
  const { tools } = await mcpHttp(baseUrl).result<{
    tools: { name: string }[];
  }>('tools/list', {}, headers);
  return tools.map((tool) => tool.name).sort();
}

describe('permissionsOf: roles as permissions', () => {
  const running = useApp(() =>
    startApp(rolesAppModule({ toolListPerCaller: true })),
  );

  it('lets a supervisor close a ticket and refuses an agent, naming the permission', async () => {
    const { baseUrl } = running();

    const closed = await mcpHttp(baseUrl).callTool(
      'tickets_close',
      {},
      SUPERVISOR,
    );
    const refused = await mcpHttp(baseUrl).callTool('tickets_close', {}, AGENT);

    expect(closed.isError).toBeFalsy();
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          text: "SECURITY_DENIED_004: Permission 'tickets.close' is missing.",
        },
      ],
    });
  });

  it('gives each caller the tools its roles reach over HTTP', async () => {
    const { baseUrl } = running();

    expect(await toolNames(baseUrl, SUPERVISOR)).toEqual([
      'desk_hours',
      'tickets_close',
      'tickets_list',
    ]);
    expect(await toolNames(baseUrl, AGENT)).toEqual([
      'desk_hours',
      'tickets_list',
    ]);
    expect(await toolNames(baseUrl)).toEqual(['desk_hours']);
  });

  it('answers a call INTERNAL_ERROR_001 when permissionsOf returns no list', async () => {
    const broken = await startApp(
      rolesAppModule({ permissionsOf: () => 42 as unknown as string[] }),
    );
    try {
      const result = await mcpHttp(broken.baseUrl).callTool(
        'tickets_list',
        {},
        AGENT,
      );
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^INTERNAL_ERROR_001: /);
    } finally {
      await broken.close();
    }
  });
});

describe('the testing kit under toolListPerCaller', () => {
  let moduleRef: TestingModule;
  const http = useApp(() =>
    startApp(rolesAppModule({ toolListPerCaller: true })),
  );

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [rolesAppModule({ toolListPerCaller: true })],
    }).compile();
    await moduleRef.init();
  });
  afterAll(() => moduleRef?.close());

  it("lists each principal's tools, as the same credentials get them over HTTP", async () => {
    const mcp = McpTestClient.create(moduleRef);
    const names = async (client: McpTestClient) =>
      (await client.listTools()).map((tool) => tool.name).sort();

    const supervisor = await names(
      mcp.withHeaders({ Authorization: SUPERVISOR.authorization }),
    );
    const agent = await names(
      mcp.withHeaders({ Authorization: AGENT.authorization }),
    );

    expect(supervisor).toEqual(['desk_hours', 'tickets_close', 'tickets_list']);
    expect(agent).toEqual(['desk_hours', 'tickets_list']);
    expect(supervisor).toEqual(await toolNames(http().baseUrl, SUPERVISOR));
    expect(agent).toEqual(await toolNames(http().baseUrl, AGENT));
    expect(await names(mcp)).toEqual(['desk_hours']);
  });
});

describe('requireToken', () => {
  const running = useApp(() =>
    startApp(rolesAppModule({ requireToken: { scheme: 'ApiKey' } })),
  );

  it("answers an anonymous tools/list 401 with the app's challenge, before any JSON-RPC", async () => {
    const reply = await mcpHttp(running().baseUrl).post(
      rpcRequest(1, 'tools/list'),
      { accept: 'application/json, text/event-stream' },
    );

    expect(reply.status).toBe(401);
    expect(reply.header('content-type')).toMatch(/^application\/problem\+json/);
    expect(reply.header('www-authenticate')).toBe('ApiKey realm="nestops"');
    expect(reply.json()).toMatchObject({ detail: 'Credentials are required.' });
  });

  it('lists the tools for a caller with a key', async () => {
    expect(await toolNames(running().baseUrl, AGENT)).toEqual([
      'desk_hours',
      'tickets_close',
      'tickets_list',
    ]);
  });

  it.each([
    [{ requireToken: true }, 'requireToken needs authGuard'],
    [
      { requireToken: { scheme: 'Api Key' }, authGuard: undefined },
      'requireToken must be true, false or { scheme }',
    ],
    [{ permissionsOf: 'roles' }, 'permissionsOf must be a function'],
  ])('stops startup for %j', async (options, message) => {
    await expect(
      Test.createTestingModule({
        imports: [McpModule.forRoot(options as never)],
      }).compile(),
    ).rejects.toThrow(message);
  });
});
