// The ceiling: a bare node:http JSON-RPC server answering `tools/call
// items_list` as an MCP server would (content text and structuredContent),
// with the API-key check and the input checked by hand. Nothing else.
const { Buffer } = require('node:buffer');
const { createServer } = require('node:http');
const { AUTHORIZATION, listItems, reportReady } = require('./common.cjs');

const MAX_BODY = 1024 * 1024;
const KEYS = new Set(['category', 'limit', 'cursor']);

/** The input's first problem, or undefined. */
function problemOf(input) {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return 'arguments must be an object';
  for (const key of Object.keys(input))
    if (!KEYS.has(key)) return `property ${key} should not exist`;
  const { category, limit, cursor } = input;
  if (typeof category !== 'string' || category.length < 1)
    return 'category must be a non-empty string';
  if (category.length > 50) return 'category must be at most 50 characters';
  if (!Number.isInteger(limit) || limit < 1 || limit > 10)
    return 'limit must be an integer from 1 to 10';
  if (
    cursor !== undefined &&
    (typeof cursor !== 'string' || cursor.length > 100)
  )
    return 'cursor must be a string of at most 100 characters';
  return undefined;
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const rpcError = (id, code, message) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

const http = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/mcp') {
    res.writeHead(405).end();
    return;
  }
  if (req.headers.authorization !== AUTHORIZATION) {
    answer(res, 401, rpcError(null, -32001, 'A valid API key is required.'));
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      answer(res, 400, rpcError(null, -32700, 'Parse error'));
      return;
    }
    const { id, method, params } = message ?? {};
    if (message?.jsonrpc !== '2.0' || method !== 'tools/call') {
      answer(res, 200, rpcError(id ?? null, -32601, 'Method not found'));
      return;
    }
    if (params?.name !== 'items_list') {
      answer(res, 200, rpcError(id, -32602, `Unknown tool ${params?.name}`));
      return;
    }
    const problem = problemOf(params.arguments);
    const result = problem
      ? { content: [{ type: 'text', text: problem }], isError: true }
      : (() => {
          const value = listItems(params.arguments.limit);
          return {
            content: [{ type: 'text', text: JSON.stringify(value) }],
            structuredContent: value,
          };
        })();
    answer(res, 200, { jsonrpc: '2.0', id, result });
  });
});
http.listen(0, '127.0.0.1', () => reportReady(http.address().port));
