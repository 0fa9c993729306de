import { OperationInvoker } from '@nestops/operations/internal';
import { I18nService } from 'nestjs-i18n';
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  vi,
} from 'vitest';
import { I18nAppModule } from '../fixtures/i18n-fixtures';
import {
  callTool,
  ClientV1,
  McpClients,
  type Caller,
} from '../support/mcp-clients';
import { mcpHttp } from '../support/mcp-http';
import { startSampleApp } from '../support/sample-app';
import { startApp, type RunningApp, useApp } from '../support/start-app';
import { WarningLog } from '../support/warning-log';

/**
 * The message catalogue over real HTTP: tool titles and descriptions and
 * every failure text in the caller's language (nestjs-i18n, the app's own
 * `I18nModule`), on the sample and on a fixture app with and without one.
 */

interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

interface CallResult {
  readonly content: ReadonlyArray<{ readonly text: string }>;
  readonly isError?: boolean;
}

async function startFixture(
  i18n: boolean,
): Promise<RunningApp & { readonly log: WarningLog }> {
  const log = new WarningLog();
  return {
    ...(await startApp(I18nAppModule.register({ i18n }), { logger: log })),
    log,
  };
}

const listTools = async (baseUrl: string, language?: string) =>
  (
    await mcpHttp(baseUrl).result<{ tools: ListedTool[] }>(
      'tools/list',
      undefined,
      language === undefined ? {} : { 'accept-language': language },
    )
  ).tools;

const callText = async (
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
) => {
  const result = await mcpHttp(baseUrl).result<CallResult>(
    'tools/call',
    { name, arguments: args },
    headers,
  );
  expect(result.isError).toBe(true);
  return result.content[0].text;
};

const byName = (tools: readonly ListedTool[], name: string) => {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new Error(`no tool ${name}`);
  }
  return tool;
};

const MEMBERS_EN = {
  title: 'List tenant members',
  description: "Lists the members of the caller's tenant.",
};
const MEMBERS_ZH = {
  title: '列出租户成员',
  description: '列出调用者租户的成员。',
};

describe('a fixture app with an I18nModule (en-US, zh-CN)', () => {
  const running = useApp(() => startFixture(true));
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['zh-CN', MEMBERS_ZH],
    ['zh', MEMBERS_ZH],
    ['zh;q=0.9, en;q=0.8', MEMBERS_ZH],
    ['en;q=0.5, zh-CN;q=0.8', MEMBERS_ZH],
    ['en-US', MEMBERS_EN],
    [undefined, MEMBERS_EN],
    ['fr', MEMBERS_EN],
    ['fr, de;q=0.5', MEMBERS_EN],
  ])(
    'lists titles and descriptions for Accept-Language %s',
    async (language, expected) => {
      const tool = byName(
        await listTools(running().baseUrl, language),
        'tenant-members_list',
      );
      expect({ title: tool.title, description: tool.description }).toEqual(
        expected,
      );
    },
  );

  it('finds the keys of an id with `-` under `_` (tenant_members.list.title)', async () => {
    const tools = await listTools(running().baseUrl, 'en-US');
    expect(byName(tools, 'tenant-members_list').title).toBe(
      'List tenant members',
    );
  });

  it('omits the fields whose keys are missing', async () => {
    for (const language of ['en-US', 'zh-CN']) {
      const tools = await listTools(running().baseUrl, language);
      const ping = byName(tools, 'silent_ping');
      expect(ping).not.toHaveProperty('title');
      expect(ping).not.toHaveProperty('description');
      const lookup = byName(tools, 'glossary_lookup');
      expect(lookup.title).toBe(
        language === 'en-US' ? 'Look up a term' : '查词',
      );
      expect(lookup).not.toHaveProperty('description');
    }
  });

  it('warns once at startup, naming every tool without a description', () => {
    const warnings = running().log.warnings.filter((w) =>
      w.includes('without a description'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('silent_ping (key silent.ping.description)');
    expect(warnings[0]).toContain(
      'glossary_lookup (key glossary.lookup.description)',
    );
    expect(warnings[0]).not.toContain('tenant-members_list');
  });

  it('answers tools/list without translating anything per request', async () => {
    const translate = vi.spyOn(I18nService.prototype, 'translate');
    for (const language of ['zh-CN', 'en-US', 'fr', 'zh;q=0.9, en;q=0.8']) {
      for (let i = 0; i < 5; i++) {
        await listTools(running().baseUrl, language);
      }
    }
    expect(translate).not.toHaveBeenCalled();
  });

  it('translates a library failure with its parameters; the code stays', async () => {
    const headers = { authorization: 'Bearer nobody' };
    // Bearer nobody is anonymous to ReaderGuard: the permission needs a principal.
    expect(
      await callText(running().baseUrl, 'tenant-members_list', {}, headers),
    ).toBe('SECURITY_DENIED_003: Authentication is required.');
  });

  it("uses the app's override of a library key, in the language it overrides", async () => {
    expect(
      await callText(
        running().baseUrl,
        'tenant-members_list',
        {},
        { 'accept-language': 'zh-CN' },
      ),
    ).toBe('SECURITY_DENIED_003: 请先登录。');
    expect(
      await callText(
        running().baseUrl,
        'tenant-members_list',
        {},
        { 'accept-language': 'en-US' },
      ),
    ).toBe('SECURITY_DENIED_003: Authentication is required.');
  });

  it('names each failing field with a translated message, in the order class-validator reports them', async () => {
    const args = { name: '', amount: 0, note: 'xyz', code: 7 };
    expect(
      await callText(running().baseUrl, 'glossary_lookup', args, {
        'accept-language': 'zh-CN',
      }),
    ).toBe(
      'VALIDATION_INVALID_001: 输入无效：name 不能为空; amount 不能小于 1; note must contain a ab string; code: say it with letters',
    );
    expect(
      await callText(running().baseUrl, 'glossary_lookup', args, {
        'accept-language': 'en-US',
      }),
    ).toBe(
      'VALIDATION_INVALID_001: Invalid input: name should not be empty; amount must not be less than 1; note must contain a ab string; code: say it with letters',
    );
  });

  it('translates unknown properties, type checks and missing fields', async () => {
    expect(
      await callText(
        running().baseUrl,
        'glossary_lookup',
        { name: 'x', amount: 'ten', note: 'ab', code: 'c', extra: 1 },
        { 'accept-language': 'zh-CN' },
      ),
    ).toBe(
      'VALIDATION_INVALID_001: 输入无效：不允许有属性 extra; amount 必须是整数',
    );
    expect(
      await callText(
        running().baseUrl,
        'glossary_lookup',
        { name: 'x', note: 'ab' },
        { 'accept-language': 'zh-CN' },
      ),
    ).toBe('VALIDATION_INVALID_001: 输入无效：amount 为必填项; code 为必填项');
  });

  it("translates an operation's own keyed failure with its parameters", async () => {
    const args = { name: 'missing', amount: 1, note: 'ab', code: 'c' };
    expect(
      await callText(running().baseUrl, 'glossary_lookup', args, {
        'accept-language': 'zh-CN',
      }),
    ).toBe('BUSINESS_NOTFOUND_001: 没有“missing”这个词条。');
    expect(await callText(running().baseUrl, 'glossary_lookup', args, {})).toBe(
      "BUSINESS_NOTFOUND_001: No entry for 'missing'.",
    );
  });
});

describe('the language of a call inside the app', () => {
  const running = useApp(() => startFixture(true));

  it("is the same for the library and nestjs-i18n's I18nContext, from Accept-Language", async () => {
    const result = await mcpHttp(running().baseUrl).result<{
      structuredContent: unknown;
    }>(
      'tools/call',
      { name: 'glossary_language', arguments: {} },
      { 'accept-language': 'zh;q=0.9, en;q=0.8' },
    );
    expect(result.structuredContent).toEqual({
      locale: 'zh-CN',
      i18nContext: 'zh-CN',
    });
  });

  it('is the same for both when a carrier gives it apart from the headers (--locale)', async () => {
    const result = await running()
      .app.get(OperationInvoker)
      .invoke('glossary.language', {
        carrier: 'cli',
        target: 'glossary.language',
        headers: {},
        input: {},
        locale: 'zh',
      });
    expect(result).toEqual({
      ok: true,
      value: { locale: 'zh-CN', i18nContext: 'zh-CN' },
      json: '{"locale":"zh-CN","i18nContext":"zh-CN"}',
    });
  });
});

describe('a fixture app without an I18nModule', () => {
  const running = useApp(() => startFixture(false));

  it('starts, lists tools without titles or descriptions, and warns naming all of them', async () => {
    const tools = await listTools(running().baseUrl, 'zh-CN');
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'glossary_language',
      'glossary_lookup',
      'silent_ping',
      'tenant-members_list',
    ]);
    for (const tool of tools) {
      expect(tool).not.toHaveProperty('title');
      expect(tool).not.toHaveProperty('description');
    }
    const warning = running().log.warnings.find((w) =>
      w.includes('without a description'),
    );
    expect(warning).toContain('4 MCP tool(s)');
  });

  it('answers in English whatever the caller asks for', async () => {
    const headers = { 'accept-language': 'zh-CN' };
    expect(
      await callText(running().baseUrl, 'tenant-members_list', {}, headers),
    ).toBe('SECURITY_DENIED_003: Authentication is required.');
    expect(
      await callText(
        running().baseUrl,
        'glossary_lookup',
        { name: '', amount: 1, note: 'ab', code: 'c' },
        headers,
      ),
    ).toBe('VALIDATION_INVALID_001: Invalid input: name should not be empty');
    expect(
      await callText(
        running().baseUrl,
        'glossary_lookup',
        { name: 'missing', amount: 1, note: 'ab', code: 'c' },
        headers,
      ),
    ).toBe('BUSINESS_NOTFOUND_001: No entry for missing.');
  });
});

describe('the sample order desk in English and Chinese', () => {
  let running: RunningApp;
  let clients: McpClients;
  const BOB: Caller = { apiKey: 'dev-bob-key' };
  const ALICE: Caller = { apiKey: 'dev-alice-key' };

  beforeAll(async () => {
    running = await startSampleApp();
    clients = new McpClients(running.baseUrl);
  });
  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  it('shows the SDK v1 client a title and a description for every tool, in both languages', async () => {
    for (const language of ['en-US', 'zh-CN']) {
      const { tools } = await (await clients.v1({ language })).listTools();
      expect(tools).toHaveLength(11);
      for (const tool of tools) {
        expect(tool.title, tool.name).toEqual(expect.any(String));
        expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      }
      expect(tools.find((t) => t.name === 'orders_create')?.title).toBe(
        language === 'en-US' ? 'Create an order' : '创建订单',
      );
    }
  });

  it('shows the SDK v2 client the Chinese titles for zh;q=0.9, en;q=0.8', async () => {
    const client = await clients.v2({ language: 'zh;q=0.9, en;q=0.8' });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'orders_list')?.title).toBe('列出订单');
  });

  it("words bob's denied orders_create in English and in Chinese, with one code, and writes nothing", async () => {
    const english = await callTool(await clients.v1(BOB), 'orders_create', {
      name: 'x',
      amount: 1,
    });
    const chinese = await callTool(
      await clients.v1({ ...BOB, language: 'zh-CN' }),
      'orders_create',
      { name: 'x', amount: 1 },
    );
    expect(english).toMatchObject({
      isError: true,
      text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
    });
    expect(chinese).toMatchObject({
      isError: true,
      text: "SECURITY_DENIED_004: 缺少权限 'orders.write'。",
    });
    await expectNoOrders(await clients.v1(ALICE));
  });

  it('names amount and name in Chinese when orders_create is invalid, and writes nothing', async () => {
    const alice = await clients.v1({ ...ALICE, language: 'zh-CN' });
    const outcome = await callTool(alice, 'orders_create', {
      name: '',
      amount: 0,
    });
    expect(outcome).toMatchObject({
      isError: true,
      text: 'VALIDATION_INVALID_001: 输入无效：name 不能为空; amount 不能小于 1',
    });
    await expectNoOrders(alice);
  });

  it('reports a missing order with its own key in Chinese', async () => {
    const alice = await clients.v1({ ...ALICE, language: 'zh-CN' });
    expect(await callTool(alice, 'orders_get', { id: 4242 })).toMatchObject({
      isError: true,
      text: 'BUSINESS_NOTFOUND_001: 订单 4242 不存在。',
    });
  });
});

async function expectNoOrders(client: ClientV1): Promise<void> {
  const listed = await callTool(client, 'orders_list', {});
  expect(listed.structuredContent).toEqual({ items: [] });
}
