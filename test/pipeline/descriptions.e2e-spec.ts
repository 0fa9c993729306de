import { I18nService } from 'nestjs-i18n';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DescribedShopModule,
  SHOP_TEXTS,
} from '../fixtures/description-fixtures';
import { RecordingLogger } from '../fixtures/outer-auth-fixtures';
import { createStrictAjv, McpClients } from '../support/mcp-clients';
import { startApp, type RunningApp } from '../support/start-app';

/**
 * Tool and property descriptions from the decorators
 * (`@Operation({ title, description })`, `@JSONSchema({ description })`),
 * with no i18n at all and under a catalogue whose keys win per language,
 * as the SDK v1 client sees them over HTTP.
 */

type Schema = {
  readonly properties?: Record<string, Schema>;
  readonly $defs?: Record<string, Schema>;
  readonly description?: string;
  readonly [keyword: string]: unknown;
};

interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Schema;
  readonly outputSchema?: Schema;
}

interface RunningShop extends RunningApp {
  /** What the app logged at warn level. */
  readonly warnings: () => string[];
  readonly clients: McpClients;
  tools(language?: string): Promise<ListedTool[]>;
}

async function startShop(i18n: boolean): Promise<RunningShop> {
  const logger = new RecordingLogger();
  const running = await startApp(DescribedShopModule.register({ i18n }), {
    logger,
  });
  const clients = new McpClients(running.baseUrl);
  return {
    ...running,
    warnings: () =>
      logger.entries
        .filter((entry) => entry.level === 'warn')
        .map((entry) => String(entry.message)),
    clients,
    tools: async (language) =>
      (await (await clients.v1({ language })).listTools())
        .tools as ListedTool[],
    close: async () => {
      await clients.closeAll();
      await running.close();
    },
  };
}

function tool(tools: readonly ListedTool[], name: string): ListedTool {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) {
    throw new Error(`no tool ${name}`);
  }
  return found;
}

/** Each property's description, by property name. */
function descriptions(schema: Schema | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {}).map(([name, property]) => [
      name,
      property.description,
    ]),
  );
}

/** Every published schema of `tools` compiles under ajv's 2020-12 build in strict mode. */
function expectValidSchemas(tools: readonly ListedTool[]): void {
  for (const listed of tools) {
    for (const schema of [listed.inputSchema, listed.outputSchema]) {
      if (schema) {
        expect(
          () => createStrictAjv().compile(schema),
          listed.name,
        ).not.toThrow();
      }
    }
  }
}

/** ShopLineDto's @JSONSchema descriptions. */
const LINE_DESCRIPTIONS = {
  sku: 'Stock keeping unit of the product',
  quantity: 'How many of the product',
};

const WAYS = [
  '@Operation({ description })',
  'its key in the message catalogue',
  '@JSONSchema({ description })',
];

describe('an app without any I18nModule', () => {
  let shop: RunningShop;

  beforeAll(async () => {
    shop = await startShop(false);
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('lists the @Operation title and description, in every language asked for', async () => {
    for (const language of [undefined, 'en-US', 'zh-CN']) {
      const tools = await shop.tools(language);
      expect(tool(tools, 'shop_place')).toMatchObject(SHOP_TEXTS.place);
      expect(tool(tools, 'shop_search')).toMatchObject(SHOP_TEXTS.search);
      expect(tool(tools, 'shop_ping')).not.toHaveProperty('title');
      expect(tool(tools, 'shop_ping')).not.toHaveProperty('description');
    }
  });

  it('lists the @JSONSchema description of every described property: input, output, $defs and inherited', async () => {
    const tools = await shop.tools('zh-CN');
    const place = tool(tools, 'shop_place');
    expect(descriptions(place.inputSchema)).toEqual({
      customer: 'Who the order is for',
      lines: 'What is ordered',
    });
    expect(descriptions(place.inputSchema.$defs?.ShopLineDto)).toEqual(
      LINE_DESCRIPTIONS,
    );
    expect(descriptions(place.outputSchema)).toEqual({
      number: 'The number of the new order',
      lines: undefined,
    });
    expect(descriptions(place.outputSchema?.$defs?.ShopLineDto)).toEqual(
      descriptions(place.inputSchema.$defs?.ShopLineDto),
    );
    expect(descriptions(tool(tools, 'shop_search').inputSchema)).toEqual({
      text: 'Text to look for',
      limit: 'Results per page',
    });
  });

  it('publishes schemas that are valid JSON Schema 2020-12 (ajv strict)', async () => {
    expectValidSchemas(await shop.tools());
  });

  it('warns once at startup naming the tool without a description and the three ways to give one', () => {
    const warnings = shop
      .warnings()
      .filter((w) => w.includes('without a description'));
    expect(warnings).toEqual([
      '1 MCP tool(s) without a description: shop_ping (key shop.ping.description). Clients and models choose tools by their descriptions: give each one with @Operation({ description }) or with its key in the message catalogue, and describe its input properties with @JSONSchema({ description }) from @nestops/operations.',
    ]);
    for (const way of WAYS) {
      expect(warnings[0]).toContain(way);
    }
  });
});

describe('an app with a catalogue (en-US, zh-CN) over the decorators', () => {
  let shop: RunningShop;

  beforeAll(async () => {
    shop = await startShop(true);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await shop?.close();
  });

  it('takes the tool texts of the catalogue where it has them, per language, and the decorators elsewhere', async () => {
    const english = await shop.tools('en-US');
    expect(tool(english, 'shop_place')).toMatchObject({
      title: SHOP_TEXTS.place.title,
      description: 'Places one order for a customer (from the catalogue).',
    });
    expect(tool(english, 'shop_search')).toMatchObject(SHOP_TEXTS.search);

    const chinese = await shop.tools('zh-CN');
    expect(tool(chinese, 'shop_place')).toMatchObject({
      title: '下单',
      description: '为客户下一个订单并返回订单号。',
    });
    expect(tool(chinese, 'shop_search')).toMatchObject({
      title: '搜索商店',
      description: SHOP_TEXTS.search.description,
    });
  });

  it('takes the property descriptions of dto.<class>.<property> per language, in the root, under $defs and from an ancestor', async () => {
    const english = tool(await shop.tools('en-US'), 'shop_place');
    expect(descriptions(english.inputSchema)).toEqual({
      customer: "The customer's account name (from the catalogue)",
      lines: 'What is ordered',
    });
    expect(descriptions(english.inputSchema.$defs?.ShopLineDto)).toEqual(
      LINE_DESCRIPTIONS,
    );

    const chineseTools = await shop.tools('zh;q=0.9, en;q=0.8');
    const chinese = tool(chineseTools, 'shop_place');
    expect(descriptions(chinese.inputSchema)).toEqual({
      customer: '订单的客户',
      lines: 'What is ordered',
    });
    for (const schema of [chinese.inputSchema, chinese.outputSchema]) {
      expect(descriptions(schema?.$defs?.ShopLineDto)).toEqual({
        sku: '商品的库存单位',
        quantity: LINE_DESCRIPTIONS.quantity,
      });
    }
    expect(descriptions(chinese.outputSchema).number).toBe(
      'The number of the new order',
    );
    expect(descriptions(tool(chineseTools, 'shop_search').inputSchema)).toEqual(
      { text: 'Text to look for', limit: '每页的结果数' },
    );
  });

  it('keeps every language list valid JSON Schema 2020-12 (ajv strict)', async () => {
    for (const language of ['en-US', 'zh-CN']) {
      expectValidSchemas(await shop.tools(language));
    }
  });

  it('answers tools/list without translating anything per request', async () => {
    const client = await shop.clients.v1({ language: 'zh-CN' });
    const translate = vi.spyOn(I18nService.prototype, 'translate');
    for (let i = 0; i < 3; i++) {
      await client.listTools();
    }
    expect(translate).not.toHaveBeenCalled();
  });
});
