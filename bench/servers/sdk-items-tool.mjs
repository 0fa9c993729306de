// The `items_list` tool as the SDK servers register it (v1 and v2 have the
// same `McpServer.registerTool`): input validated with zod, the items as the
// text content and as `structuredContent`.
import { createRequire } from 'node:module';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const { listItems } = require('./common.cjs');

const inputSchema = z
  .object({
    category: z.string().min(1).max(50),
    limit: z.number().int().min(1).max(10),
    cursor: z.string().max(100).optional(),
  })
  .strict();

/** Registers `items_list` on an SDK `McpServer` (v1 or v2); returns it. */
export function withItemsTool(server) {
  server.registerTool(
    'items_list',
    {
      description:
        'Lists up to ten items of a category from the in-memory catalogue.',
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      const result = listItems(input.limit);
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result,
      };
    },
  );
  return server;
}
