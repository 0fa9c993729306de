// @rekog/mcp-nest (v2 API) stateless: `McpStrategy` with a
// `StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true })`,
// the tool `items_list` on an `@McpController` with a zod schema (its own way
// of validating input), the API-key guard as APP_GUARD (it reads the raw HTTP
// request from the RPC context).
const { Module } = require('@nestjs/common');
const { APP_GUARD } = require('@nestjs/core');
const { Payload } = require('@nestjs/microservices');
const {
  McpController,
  McpStrategy,
  StreamableHttpTransport,
  Tool,
} = require('@rekog/mcp-nest');
const { z } = require('zod');
const { listItems } = require('./common.cjs');
const { ApiKeyGuard, bootNest } = require('./nest-common.cjs');

class ItemsTools {
  list(input) {
    const result = listItems(input.limit);
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
    };
  }
}
Payload()(ItemsTools.prototype, 'list', 0);
Reflect.decorate(
  [
    Tool({
      name: 'items_list',
      description:
        'Lists up to ten items of a category from the in-memory catalogue.',
      parameters: z
        .object({
          category: z.string().min(1).max(50),
          limit: z.number().int().min(1).max(10),
          cursor: z.string().max(100).optional(),
        })
        .strict(),
      annotations: { readOnlyHint: true },
    }),
  ],
  ItemsTools.prototype,
  'list',
  Object.getOwnPropertyDescriptor(ItemsTools.prototype, 'list'),
);
Reflect.decorate([McpController()], ItemsTools);

const mcp = new McpStrategy({
  name: 'bench-rekog',
  version: '1.0.0',
  transports: [
    new StreamableHttpTransport({
      statefulMode: false,
      enableJsonResponse: true,
    }),
  ],
});

class RekogModule {}
Reflect.decorate(
  [
    Module({
      controllers: [ItemsTools],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    }),
  ],
  RekogModule,
);

void bootNest(RekogModule, {
  prepare: async (app) => {
    mcp.setHttpAdapter(app.getHttpAdapter());
    app.connectMicroservice({ strategy: mcp }, { inheritAppConfig: true });
    await app.startAllMicroservices();
  },
});
