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
  // Orders are also resources (orders://{id}, orders://recent).
  features: ['resources'],
};
