import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { childEnv } from '../support/cli-process';
import { CLIENT_INFO, ClientV1, ClientV2 } from '../support/mcp-clients';
import { type RunningApp, startApp } from '../support/start-app';

/**
 * A request the server sends its client in the middle of a call
 * (`roots/list`), answered by the official SDK clients' own handlers, over
 * Streamable HTTP (on the call's SSE stream, the answer a POST of its own)
 * and over stdio (lines both ways).
 */

const APP = join(__dirname, '../fixtures/roots-app.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RootsModule } = require(APP) as { RootsModule: new () => object };

const ROOTS = [
  { uri: 'file:///work/orders', name: 'orders' },
  { uri: 'file:///work/notes', name: 'notes' },
];
const CAPABILITIES = { capabilities: { roots: { listChanged: false } } };

function v1Client(): ClientV1 {
  const client = new ClientV1(CLIENT_INFO, CAPABILITIES);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ROOTS }));
  return client;
}

function v2Client(): ClientV2 {
  const client = new ClientV2(CLIENT_INFO, CAPABILITIES);
  client.setRequestHandler('roots/list', () => ({ roots: ROOTS }));
  return client;
}

async function askRoots(client: ClientV1 | ClientV2): Promise<unknown> {
  try {
    const result = await client.callTool({ name: 'roots_ask', arguments: {} });
    return { isError: result.isError, structured: result.structuredContent };
  } finally {
    await client.close();
  }
}

const ANSWER = {
  isError: undefined,
  structured: { roots: ['file:///work/orders', 'file:///work/notes'] },
};

describe('over Streamable HTTP (2025-11-25)', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(RootsModule);
  });
  afterAll(() => running?.close());

  const url = () => new URL('/mcp', running.baseUrl);

  it('SDK v1: the request goes out on the call stream, its answer comes back as a POST', async () => {
    const client = v1Client();
    await client.connect(new HttpV1(url()));
    expect(await askRoots(client)).toEqual(ANSWER);
  });

  it('SDK v2: the same exchange', async () => {
    const client = v2Client();
    await client.connect(new HttpV2(url()));
    expect(await askRoots(client)).toEqual(ANSWER);
  });
});

describe('over stdio', () => {
  const spawned = { command: process.execPath, args: [APP, 'mcp'] };

  it('SDK v1: the request and its answer are lines of the session', async () => {
    const client = v1Client();
    await client.connect(new StdioV1({ ...spawned, env: childEnv() }));
    expect(await askRoots(client)).toEqual(ANSWER);
  });

  it('SDK v2: the same exchange', async () => {
    const client = v2Client();
    await client.connect(
      new StdioV2({ ...spawned, env: childEnv(), stderr: 'pipe' }),
    );
    expect(await askRoots(client)).toEqual(ANSWER);
  });
});
