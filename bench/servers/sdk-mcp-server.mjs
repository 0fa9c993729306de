// The official SDK (v2: @modelcontextprotocol/server + /node) stateless on
// node:http, as its README shows: per POST a new `McpServer` and a
// `NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined,
// enableJsonResponse: true })`, so answers are plain JSON. The API key is
// checked before the MCP handling; the tool validates its input with zod.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const { AUTHORIZATION, listItems, reportReady } = require('./common.cjs');

const inputSchema = z
  .object({
    category: z.string().min(1).max(50),
    limit: z.number().int().min(1).max(10),
    cursor: z.string().max(100).optional(),
  })
  .strict();

function newServer() {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
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

const unauthorized = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32001, message: 'A valid API key is required.' },
});

const http = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/mcp') {
    res.writeHead(405).end();
    return;
  }
  if (req.headers.authorization !== AUTHORIZATION) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(unauthorized);
    return;
  }
  const server = newServer();
  const transport = new NodeStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  }
});
http.listen(0, '127.0.0.1', () => reportReady(http.address().port));
