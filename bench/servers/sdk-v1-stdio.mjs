// The official SDK v1 (`@modelcontextprotocol/sdk`) over stdio, as its
// README shows: one `McpServer` connected to a `StdioServerTransport`, the
// same `items_list` tool as the HTTP SDK server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { withItemsTool } from './sdk-items-tool.mjs';

const server = withItemsTool(
  new McpServer({ name: 'bench-sdk-v1', version: '1.0.0' }),
);
await server.connect(new StdioServerTransport());
