// The official SDK (v2: @modelcontextprotocol/server + /node) stateless on
// node:http, as its README shows: per POST a new `McpServer` and a
// `NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined,
// enableJsonResponse: true })`, so answers are plain JSON. The API key is
// checked before the MCP handling; the tool validates its input with zod.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { withItemsTool } from './sdk-items-tool.mjs';

const require = createRequire(import.meta.url);
const { AUTHORIZATION, reportReady } = require('./common.cjs');

const newServer = () =>
  withItemsTool(new McpServer({ name: 'bench-sdk', version: '1.0.0' }));

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
