// The official SDK v2 (`@modelcontextprotocol/server`) over stdio, as its
// README shows: one `McpServer` connected to a `StdioServerTransport`, the
// same `items_list` tool as the HTTP SDK server.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { withItemsTool } from './sdk-items-tool.mjs';

const server = withItemsTool(
  new McpServer({ name: 'bench-sdk-v2', version: '1.0.0' }),
);
await server.connect(new StdioServerTransport());
