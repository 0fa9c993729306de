import type { McpCliServerOptions } from '@nestops/mcp/cli';

/**
 * What the sample's MCP server greets a client with, in McpModule's options
 * (`src/mcp.options.ts`) and told to `runCli` (`src/cli.ts`), which answers
 * `initialize` and `server/discover` with it before the app has loaded.
 * A file of its own, so that the command line loads nothing else to know it.
 */
export const MCP_SERVER: McpCliServerOptions = {
  serverName: 'order-desk',
  instructions: 'Order desk',
  // What the app serves beyond tools: orders as resources (orders://{id},
  // orders://recent), its prompt, and completions of the prompt's arguments
  // and of the orders://{id} template.
  features: ['resources', 'prompts', 'completions'],
  // orders.import runs as a task for a client that negotiated tasks.
  taskSupport: true,
};
