// The consumer test's MCP client: run by scripts/consumer-test.sh inside the
// throw-away app (so the SDK comes from that app's node_modules) as
// `node client.mjs <base-url> <app-pid>`. Waits until the app answers, then
// checks the quick start's tools through @modelcontextprotocol/sdk.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [base, appPid] = process.argv.slice(2);
const endpoint = new URL('/mcp', base);
const READ_WRITE = 'alice-token';
const READ_ONLY = 'bob-token';

/** POSTs one JSON-RPC message to the endpoint with plain fetch. */
function post(message, headers = {}) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

/** Until `ping` answers 200: the endpoint says 503 while the app starts. */
async function waitUntilReady(timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(Number(appPid), 0);
    } catch {
      throw new Error('The app exited before it answered.');
    }
    try {
      const res = await post({ jsonrpc: '2.0', id: 0, method: 'ping' });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`${endpoint} did not answer within ${timeoutMs} ms.`);
    }
    await sleep(100);
  }
}

async function connect(token) {
  const client = new Client({ name: 'consumer-test', version: '1.0.0' });
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }),
  );
  return client;
}

/** `content[0].text` of a tool result, which every result must have. */
function textOf(result) {
  assert.equal(result.content?.[0]?.type, 'text', JSON.stringify(result));
  return result.content[0].text;
}

function assertFailure(result, prefix) {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.ok(textOf(result).startsWith(prefix), textOf(result));
}

await waitUntilReady();

// Bad credentials are refused before any JSON-RPC handling.
const refused = await post(
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { Authorization: 'Bearer no-such-token' },
);
assert.equal(refused.status, 401, await refused.text());
assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer /);

const alice = await connect(READ_WRITE);
const bob = await connect(READ_ONLY);
const anonymous = await connect(undefined);
try {
  // serverInfo is the app's own package.json, found from the app, not the
  // working directory.
  const app = JSON.parse(
    readFileSync(new URL('./package.json', import.meta.url)),
  );
  assert.deepEqual(alice.getServerVersion(), {
    name: app.name,
    version: app.version,
  });

  const { tools } = await alice.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual([...byName.keys()].sort(), ['notes_create', 'notes_list']);
  const create = byName.get('notes_create');
  assert.equal(create.inputSchema.type, 'object');
  assert.deepEqual(create.inputSchema.required, ['text']);
  assert.equal(create.inputSchema.additionalProperties, false);
  assert.deepEqual(create.inputSchema.properties.text, {
    type: 'string',
    minLength: 1,
    maxLength: 500,
    description: 'The text of the note, up to 500 characters.',
  });
  // The texts come from @Operation and @JSONSchema: the app has no nestjs-i18n.
  assert.equal(create.title, 'Add a note');
  assert.equal(
    create.description,
    'Adds a note to the shared notebook and returns it.',
  );
  assert.equal(create.outputSchema?.type, 'object');
  assert.equal(create.annotations?.readOnlyHint, false);
  const list = byName.get('notes_list');
  assert.equal(list.title, 'List notes');
  assert.equal(
    list.description,
    'Lists every note of the shared notebook, oldest first.',
  );
  assert.equal(list.inputSchema.type, 'object');
  assert.equal(list.annotations?.readOnlyHint, true);

  const created = await alice.callTool({
    name: 'notes_create',
    arguments: { text: 'Buy milk' },
  });
  const note = { id: 1, text: 'Buy milk', author: 'alice' };
  assert.notEqual(created.isError, true, JSON.stringify(created));
  assert.deepEqual(created.structuredContent, note);
  assert.deepEqual(JSON.parse(textOf(created)), note);

  const listed = await bob.callTool({ name: 'notes_list', arguments: {} });
  assert.notEqual(listed.isError, true, JSON.stringify(listed));
  assert.deepEqual(listed.structuredContent, { items: [note] });

  const invalid = await alice.callTool({
    name: 'notes_create',
    arguments: { text: '', extra: true },
  });
  assertFailure(invalid, 'VALIDATION_INVALID_001: ');

  const denied = await bob.callTool({
    name: 'notes_create',
    arguments: { text: 'Sell milk' },
  });
  assertFailure(denied, "SECURITY_DENIED_004: Permission 'notes.write'");

  const unauthenticated = await anonymous.callTool({
    name: 'notes_list',
    arguments: {},
  });
  assertFailure(unauthenticated, 'SECURITY_DENIED_003: ');
} finally {
  await Promise.all([alice, bob, anonymous].map((client) => client.close()));
}
