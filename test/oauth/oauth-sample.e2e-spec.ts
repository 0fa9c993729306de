import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import {
  type RunningAuthorizationServer,
  startAuthorizationServer,
} from '../../src/oauth-server/authorization-server';
import { CLIENT_INFO } from '../support/mcp-clients';
import { freePort, TestOAuthProvider } from '../support/oauth-client';
import { type RunningSample, startSampleApp } from '../support/sample-app';

/**
 * The sample in OAuth mode against a real authorization server
 * (oidc-provider) on 127.0.0.1, with the official SDK clients and their
 * OAuth providers: 401, metadata, authorization server, dynamic client
 * registration, authorization code with PKCE (the login driven over
 * HTTP), token, then calls.
 */

const ORDER = { name: 'oauth', amount: 3 };

interface Sample {
  readonly app: RunningSample;
  readonly server: RunningAuthorizationServer;
  readonly url: URL;
}

async function startOAuthSample(
  env: Record<string, string> = {},
): Promise<Sample> {
  const port = await freePort();
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const server = await startAuthorizationServer(url.href);
  const app = await startSampleApp('sqlite', {
    port,
    env: { OAUTH_ISSUER: server.issuer, MCP_RESOURCE: url.href, ...env },
  });
  return { app, server, url };
}

async function closeSample(sample: Sample | undefined): Promise<void> {
  await sample?.app.close();
  await sample?.server.close();
}

/** Connects an SDK v1 client as `user`: the first connect is refused (401), the login runs, the second connects. */
async function connectV1(sample: Sample, user: string) {
  const provider = new TestOAuthProvider();
  const first = new TransportV1(sample.url, { authProvider: provider });
  await expect(new ClientV1(CLIENT_INFO).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const back = await provider.signIn(user);
  await first.finishAuth(back.get('code') ?? '');
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(new TransportV1(sample.url, { authProvider: provider }));
  return { client, provider };
}

async function connectV2(sample: Sample, user: string) {
  const provider = new TestOAuthProvider();
  const first = new TransportV2(sample.url, { authProvider: provider });
  await expect(new ClientV2(CLIENT_INFO).connect(first)).rejects.toThrow();
  await first.finishAuth(await provider.signIn(user));
  const client = new ClientV2(CLIENT_INFO);
  await client.connect(new TransportV2(sample.url, { authProvider: provider }));
  return { client, provider };
}

/** Lists the tools, creates an order, closes the client. */
async function expectCreated(client: ClientV1 | ClientV2): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('orders_create');
  const created = await client.callTool({
    name: 'orders_create',
    arguments: ORDER,
  });
  expect(created.isError).toBeFalsy();
  expect(created.structuredContent).toMatchObject(ORDER);
  await client.close();
}

describe.each([
  ['the library verifier (jose)', 'jose'],
  ['passport-jwt, the app own guard', 'passport'],
])('the sample in OAuth mode with %s, step-up on', (_, verifier) => {
  let sample: Sample;
  beforeAll(async () => {
    sample = await startOAuthSample({
      MCP_STEP_UP: 'true',
      OAUTH_VERIFIER: verifier,
    });
  });
  afterAll(() => closeSample(sample));

  it('SDK v1: alice signs in (PKCE) and creates an order', async () => {
    const { client, provider } = await connectV1(sample, 'alice');

    const authorization = provider.authorizations[0];
    expect(authorization.searchParams.get('code_challenge_method')).toBe(
      'S256',
    );
    expect(authorization.searchParams.get('resource')).toBe(sample.url.href);
    await expectCreated(client);
  });

  it('refuses a token signed by another key with 401 invalid_token', async () => {
    const { client, provider } = await connectV1(sample, 'alice');
    await client.close();
    const [header, payload] = (provider.tokens()?.access_token ?? '').split(
      '.',
    );
    const forged = `${header}.${payload}.${Buffer.from('forged').toString('base64url')}`;

    const reply = await fetch(sample.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${forged}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="http://${sample.url.host}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("SDK v1: bob's create gets the step-up 403, and the client asks for orders.write", async () => {
    const { client, provider } = await connectV1(sample, 'bob');

    await expect(
      client.callTool({ name: 'orders_create', arguments: ORDER }),
    ).rejects.toThrow();
    // The 403 sent the client back to the authorization server for more.
    expect(provider.authorizations).toHaveLength(2);
    expect(provider.authorizations[1].searchParams.get('scope')).toBe(
      'orders.write',
    );
    await client.close();
  });

  it('SDK v2: alice signs in and creates an order', async () => {
    const { client } = await connectV2(sample, 'alice');

    await expectCreated(client);
  });
});

describe.each([
  ['the library verifier (jose)', 'jose'],
  ['passport-jwt, the app own guard', 'passport'],
])('the sample in OAuth mode with %s, step-up off', (_, verifier) => {
  let sample: Sample;
  beforeAll(async () => {
    sample = await startOAuthSample({ OAUTH_VERIFIER: verifier });
  });
  afterAll(() => closeSample(sample));

  it.each([
    ['v1', connectV1],
    ['v2', connectV2],
  ])("SDK %s: bob's create is SECURITY_DENIED_004", async (_, connect) => {
    const { client } = await connect(sample, 'bob');

    const created = await client.callTool({
      name: 'orders_create',
      arguments: ORDER,
    });
    expect(created).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
        },
      ],
    });
    await client.close();
  });
});
