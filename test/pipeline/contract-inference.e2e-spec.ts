import { ContractError } from '@nestops/operations/internal';
import {
  ContradictoryOperations,
  DeclaredInputOperations,
  InlineInputOperations,
  InterfaceInputOperations,
  TicketIntakeOperations,
} from '../fixtures/contract-inference-fixtures';
import { fixtureI18nModule } from '../fixtures/i18n-fixtures';
import { appWith, startupError } from '../fixtures/startup-fixtures';
import { mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * What an operation's contract takes from its method: an input parameter
 * that is not a class stops startup, naming the fix; `input: null` and a
 * method without parameters take nothing; `destructive`, `idempotent` and
 * `openWorld` override what the verb implies, and read-only with
 * destructive stops startup.
 */

interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, boolean>;
}

describe('an input that is not a class', () => {
  it.each([
    [
      'an inline type',
      InlineInputOperations,
      'tickets.list',
      'InlineInputOperations.list',
    ],
    [
      'an interface',
      InterfaceInputOperations,
      'tickets.search',
      'InterfaceInputOperations.search',
    ],
  ])(
    'stops startup for %s, naming the operation, the method and the fix',
    async (_kind, provider, id, source) => {
      const error = await startupError(appWith([provider]));

      expect(error).toBeInstanceOf(ContractError);
      expect(error.message).toContain(`'${id}'`);
      expect(error.message).toContain(source);
      expect(error.message).toContain(
        'the type of its first parameter, the input, is not a class (it reflects as Object',
      );
      expect(error.message).toContain('@Operation({ input: SomeDto })');
      expect(error.message).toContain('input: null');
    },
  );
});

describe('inputs and annotations as declared', () => {
  const running = useApp(() => startApp(appWith([DeclaredInputOperations])));

  async function tools(): Promise<Map<string, ListedTool>> {
    const { tools } = await mcpHttp(running().baseUrl).result<{
      tools: ListedTool[];
    }>('tools/list');
    return new Map(tools.map((tool) => [tool.name, tool]));
  }

  it('publishes no properties for a method without parameters and for input: null, and calls them', async () => {
    const listed = await tools();

    for (const name of ['desk_hours', 'desk_ping']) {
      expect(listed.get(name)?.inputSchema).toMatchObject({
        type: 'object',
        additionalProperties: false,
      });
    }
    const pinged = await mcpHttp(running().baseUrl).callTool('desk_ping');
    expect(pinged.isError).toBeFalsy();
  });

  it('publishes and validates the input class that input: names', async () => {
    const listed = await tools();

    expect(listed.get('tickets_filter')?.inputSchema).toMatchObject({
      properties: { status: { enum: ['open', 'closed'] } },
    });
    const filtered = await mcpHttp(running().baseUrl).callTool(
      'tickets_filter',
      {
        status: 'open',
      },
    );
    expect(filtered.content[0].text).toBe('{"status":"open"}');
  });

  it('publishes destructive and idempotent as stated over what the verb implies', async () => {
    expect((await tools()).get('tickets_close')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
  });

  it('publishes openWorldHint only where it is stated', async () => {
    const listed = await tools();

    expect(listed.get('weather_fetch')?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(listed.get('desk_hours')?.annotations).not.toHaveProperty(
      'openWorldHint',
    );
  });

  it('stops startup for a read-only operation stated destructive', async () => {
    const error = await startupError(appWith([ContradictoryOperations]));

    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toContain("'tickets.list'");
    expect(error.message).toContain(
      "it is read-only (the verb 'list') and destructive: true",
    );
  });
});

describe('defaults and dates of an input DTO', () => {
  const running = useApp(() => {
    const module = appWith([TicketIntakeOperations]);
    return startApp({
      ...module,
      imports: [...(module.imports ?? []), fixtureI18nModule()],
    });
  });

  it("publishes a property's initialiser as its default, and applies it", async () => {
    const { tools } = await mcpHttp(running().baseUrl).result<{
      tools: ListedTool[];
    }>('tools/list');
    const called = await mcpHttp(running().baseUrl).callTool('tickets_create', {
      title: 'printer',
      dueAt: '2026-12-31T17:00:00Z',
    });

    expect(tools[0].inputSchema).toMatchObject({
      properties: { priority: { default: 'normal' } },
    });
    expect(called.content[0].text).toBe(
      '{"priority":"normal","dueAt":"2026-12-31T17:00:00.000Z"}',
    );
  });

  it.each([
    [
      'en-US',
      'dueAt must be an ISO 8601 date or date-time string (e.g. 2026-12-31 or 2026-12-31T17:00:00Z)',
    ],
    [
      'zh-CN',
      'dueAt 必须是 ISO 8601 日期或日期时间字符串（例如 2026-12-31 或 2026-12-31T17:00:00Z）',
    ],
  ])('says in %s what a date must look like', async (language, text) => {
    const called = await mcpHttp(running().baseUrl).callTool(
      'tickets_create',
      { title: 'printer', dueAt: 'next friday' },
      { 'accept-language': language },
    );

    expect(called.isError).toBe(true);
    expect(called.content[0].text).toMatch(/^VALIDATION_INVALID_001: /);
    expect(called.content[0].text).toContain(text);
  });
});
