import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Module, type Type } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { Test } from '@nestjs/testing';
import * as McpTesting from '@nestops/mcp/testing';
import type { AppSetup } from '@nestops/operations';
import type * as OperationsTesting from '@nestops/operations/testing';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, type Finished, finished } from '../support/cli-process';
import { callTool, CLIENT_INFO } from '../support/mcp-clients';
import { ACCEPT_BOTH, rpcRequest, mcpHttp } from '../support/mcp-http';
import { CLI as SAMPLE_CLI } from '../support/sample-process';
import { startApp, type RunningApp } from '../support/start-app';
import { WarningLog } from '../support/warning-log';

/**
 * One setup for every carrier: a notes app whose only guard is set in its
 * setup function (`test/fixtures/setup-app`, as a `main.ts` sets one with
 * `app.useGlobalGuards()`), over HTTP, `invoke`, stdio (spawned, with the
 * SDK clients) and the testing kits; and the server's name and version
 * from the app's own package.json, wherever the process is started.
 */

const FIXTURE = join(__dirname, '../fixtures/setup-app');
const CLI = join(FIXTURE, 'cli.cjs');
const ALICE = 'Bearer alice-token';
const REQUEST = { timeout: 15_000 } as const;
// The fixture is plain CommonJS that `node` runs: the testing kits come
// from the same copy of the libraries as the module it declares.
const fixtureRequire = createRequire(join(FIXTURE, 'notes-app.cjs'));
const notes = fixtureRequire('./notes-app.cjs') as {
  NotesModule: Type<unknown>;
  setupNotes: AppSetup;
};
const { createTestApplication, OperationTestClient } = fixtureRequire(
  '@nestops/operations/testing',
) as typeof OperationsTesting;
const FixtureMcpTestClient = (
  fixtureRequire('@nestops/mcp/testing') as typeof McpTesting
).McpTestClient;
/** The setup's guard refuses with its own message, which the caller reads. */
const ANONYMOUS_REFUSED =
  'SECURITY_DENIED_003: StrictGuard: credentials are required.';
/** Without the guard, the library refuses a call that needs a permission. */
const NO_PRINCIPAL = 'SECURITY_DENIED_003: Authentication is required.';
const UNGUARDED = "McpModule's authGuard StrictGuard does not run";

/** Runs the fixture's CLI to the end (stdin closed). */
function run(
  args: readonly string[],
  env: Record<string, string> = {},
  nodeOptions: readonly string[] = [],
): Promise<Finished> {
  const child = spawn(process.execPath, [...nodeOptions, CLI, ...args], {
    env: childEnv(env),
    cwd: tmpdir(),
  });
  child.stdin.end();
  return finished(child);
}

/** An SDK v1 client over stdio, the host started as a client starts it. */
async function stdioClient(
  entry: string,
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<ClientV1> {
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(
    new StdioV1({
      command: process.execPath,
      args: [entry, 'mcp'],
      env: childEnv(options.env),
      cwd: options.cwd,
      stderr: 'pipe',
    }),
    REQUEST,
  );
  return client;
}

describe('a guard set in the setup function, on every carrier', () => {
  it('HTTP (main.ts applies the setup): refuses an anonymous call, lets alice through', async () => {
    const log = new WarningLog();
    const running = await startApp(notes.NotesModule, {
      logger: log,
      setup: notes.setupNotes,
    });
    const connect = async (headers: Record<string, string>) => {
      const client = new ClientV1(CLIENT_INFO);
      await client.connect(
        new HttpV1(new URL('/mcp', running.baseUrl), {
          requestInit: { headers },
        }),
      );
      return client;
    };
    const anonymous = await connect({});
    const alice = await connect({ Authorization: ALICE });
    try {
      expect(await callTool(anonymous, 'notes_count')).toMatchObject({
        isError: true,
        text: ANONYMOUS_REFUSED,
      });
      expect(
        await callTool(alice, 'notes_create', { text: 'from HTTP' }),
      ).toMatchObject({
        isError: false,
        structuredContent: { id: 1, text: 'from HTTP', author: 'alice' },
      });
      expect(log.warnings.filter((w) => w.includes(UNGUARDED))).toEqual([]);
    } finally {
      await anonymous.close();
      await alice.close();
      await running.close();
    }
  });

  it('invoke with runCli({ setup }): refuses an anonymous call (exit 1), lets alice through', async () => {
    const anonymous = await run(['invoke', 'notes.count']);
    expect(anonymous).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`${ANONYMOUS_REFUSED}\n`),
    });

    const alice = await run([
      'invoke',
      'notes.create',
      '{"text":"from the shell"}',
      '--authorization',
      ALICE,
    ]);
    expect(alice.code, alice.stderr).toBe(0);
    expect(JSON.parse(alice.stdout)).toEqual({
      id: 1,
      text: 'from the shell',
      author: 'alice',
    });
    expect(alice.stderr).not.toContain(UNGUARDED);
  });

  it('stdio with runCli({ setup }), SDK v1: refuses an anonymous call, lets alice through', async () => {
    const anonymous = await stdioClient(CLI);
    const alice = await stdioClient(CLI, { env: { MCP_AUTHORIZATION: ALICE } });
    try {
      expect(await callTool(anonymous, 'notes_count')).toMatchObject({
        isError: true,
        text: ANONYMOUS_REFUSED,
      });
      expect(
        await callTool(alice, 'notes_create', { text: 'over stdio' }),
      ).toMatchObject({
        isError: false,
        structuredContent: { id: 1, text: 'over stdio', author: 'alice' },
      });
      expect(await callTool(alice, 'notes_count')).toMatchObject({
        isError: false,
        structuredContent: { count: 1 },
      });
    } finally {
      await anonymous.close();
      await alice.close();
    }
  });

  it('stdio, raw lines: the same refusal for an anonymous call', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp'], { env: childEnv() });
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    const closed = new Promise<number | null>((resolve) =>
      child.once('close', resolve),
    );
    child.stdin.end(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'notes_count', arguments: {} },
      })}\n`,
    );
    expect(await closed).toBe(0);
    expect(JSON.parse(Buffer.concat(stdout).toString('utf8'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [{ type: 'text', text: ANONYMOUS_REFUSED }],
        isError: true,
      },
    });
  });

  it('without the setup, the guard is missing on the command line, and the start says so', async () => {
    const anonymous = await run(['invoke', 'notes.count'], { SETUP: 'none' });
    expect(anonymous.code).toBe(0);
    expect(JSON.parse(anonymous.stdout)).toEqual({ count: 0 });

    const alice = await run(
      ['invoke', 'notes.create', '{"text":"x"}', '--authorization', ALICE],
      { SETUP: 'none' },
    );
    expect(alice.code).toBe(1);
    expect(alice.stderr).toContain(NO_PRINCIPAL);
    expect(alice.stderr).toContain(
      `${UNGUARDED} on the calls of 1 operation(s) that need a permission (notes.create)`,
    );
    expect(alice.stderr).toContain(
      '{ provide: APP_GUARD, useClass: StrictGuard }',
    );
    expect(alice.stderr).toContain("runCli's setup option");
  });

  it('a setup that throws stops the start: exit 70, the reason on stderr, nothing on stdout', async () => {
    const failed = await run(['invoke', 'notes.count'], { SETUP: 'throws' });
    expect(failed).toMatchObject({ code: 70, stdout: '' });
    expect(failed.stderr).toContain(
      'cli: the application did not start: the setup failed on purpose',
    );
  });

  it('a setup that is not a function: exit 70, saying what it must be', async () => {
    const failed = await run(['invoke', 'notes.count'], {
      SETUP: 'not-a-function',
    });
    expect(failed).toMatchObject({ code: 70, stdout: '' });
    expect(failed.stderr).toBe(
      "cli: the application did not start: runCli's setup must be the function main.ts applies to the app, not string\n",
    );
  });

  it('a setup without @nestjs/platform-express installed: exit 70 naming the package', async () => {
    const failed = await run(['invoke', 'notes.count'], {}, [
      '--import',
      join(FIXTURE, 'no-express.mjs'),
    ]);
    expect(failed).toMatchObject({ code: 70, stdout: '' });
    expect(failed.stderr).toContain(
      "cli: the application did not start: runCli's setup option boots the app as main.ts does, on @nestjs/platform-express, which did not load",
    );
    expect(failed.stderr).toContain('install it, or leave setup out');
  });

  it('the testing kits, on createTestApplication(moduleRef, setup)', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [notes.NotesModule],
    })
      .setLogger(new WarningLog())
      .compile();
    const app = await createTestApplication(moduleRef, notes.setupNotes);
    try {
      const operations = OperationTestClient.create(app);
      expect(await operations.invoke('notes.count')).toMatchObject({
        ok: false,
        failure: { code: 'SECURITY_DENIED_003' },
      });
      expect(
        await operations
          .withHeaders({ Authorization: ALICE })
          .invoke('notes.create', { text: 'in a test' }),
      ).toEqual({
        ok: true,
        value: { id: 1, text: 'in a test', author: 'alice' },
        json: '{"id":1,"text":"in a test","author":"alice"}',
      });

      const mcp = FixtureMcpTestClient.create(app);
      expect(await mcp.callTool('notes_count')).toMatchObject({
        isError: true,
        content: [{ text: ANONYMOUS_REFUSED }],
      });
      expect(
        await mcp.withHeaders({ Authorization: ALICE }).callTool('notes_count'),
      ).toMatchObject({ structuredContent: { count: 1 } });
    } finally {
      await app.close();
    }
  });

  it('createTestApplication refuses a setup that is not a function', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [notes.NotesModule],
    }).compile();
    await expect(
      createTestApplication(moduleRef, 'setupNotes' as unknown as AppSetup),
    ).rejects.toThrow(
      "createTestApplication's setup must be the function main.ts applies to the app, not string",
    );
  });

  it('createTestApplication rethrows what the setup throws', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [notes.NotesModule],
    })
      .setLogger(new WarningLog())
      .compile();
    await expect(
      createTestApplication(moduleRef, () => {
        throw new Error('no setup today');
      }),
    ).rejects.toThrow('no setup today');
  });
});

describe("the server's name and version belong to the app", () => {
  const elsewhere = () => mkdtempSync(join(tmpdir(), 'stdio-client-'));

  /** `serverInfo` of the host started as a stdio client starts it. */
  async function serverInfoOver(
    sdk: 'v1' | 'v2',
    entry: string,
    options: { env?: Record<string, string>; cwd: string },
  ): Promise<unknown> {
    if (sdk === 'v1') {
      const client = await stdioClient(entry, options);
      try {
        return client.getServerVersion();
      } finally {
        await client.close();
      }
    }
    const client = new ClientV2(CLIENT_INFO);
    await client.connect(
      new StdioV2({
        command: process.execPath,
        args: [entry, 'mcp'],
        env: childEnv(options.env),
        cwd: options.cwd,
        stderr: 'pipe',
      }),
    );
    try {
      return client.getServerVersion();
    } finally {
      await client.close();
    }
  }

  // The name is the server's: the SDK v2 client reads it in the next test.
  it.each<['v1' | 'v2', string, string]>([
    ['v1', '/', '/'],
    ['v1', 'a temporary folder', elsewhere()],
  ])(
    "SDK %s, stdio started from %s: the name and version of the app's package.json",
    async (sdk, _where, cwd) => {
      expect(await serverInfoOver(sdk, CLI, { cwd })).toEqual({
        name: 'guarded-notes',
        version: '3.1.4',
      });
    },
  );

  it.each<'v1' | 'v2'>(['v2'])(
    "SDK %s, stdio started from /: the package's name and version, not runCli's name (one name on every carrier)",
    async (sdk) => {
      expect(
        await serverInfoOver(sdk, CLI, {
          cwd: '/',
          env: { CLI_NAME: 'notes-cli' },
        }),
      ).toEqual({ name: 'guarded-notes', version: '3.1.4' });
    },
  );

  it("the sample over stdio, started from /: 'order-desk' (its serverName) and its version", async () => {
    expect(
      await serverInfoOver('v1', SAMPLE_CLI, {
        cwd: '/',
        env: { SQLITE_PATH: join(elsewhere(), 'orders.sqlite') },
      }),
    ).toEqual({ name: 'order-desk', version: '0.1.0' });
  });

  it('forRootAsync: the package.json nearest to its caller (this repository), not the test runner', async () => {
    @Module({
      imports: [McpModule.forRootAsync({ useFactory: () => ({}) })],
    })
    class AsyncModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [AsyncModule],
    })
      .setLogger(new WarningLog())
      .compile();
    await moduleRef.init();
    try {
      expect(
        await McpTesting.McpTestClient.create(moduleRef).request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: CLIENT_INFO,
        }),
      ).toMatchObject({ serverInfo: { name: 'nestops', version: '0.1.0' } });
    } finally {
      await moduleRef.close();
    }
  });

  it('HTTP: initialize and the WWW-Authenticate realm name the app, whatever the working directory', async () => {
    const cwd = process.cwd();
    process.chdir('/');
    let running: RunningApp;
    try {
      running = await startApp(notes.NotesModule);
    } finally {
      process.chdir(cwd);
    }
    try {
      const client = new ClientV1(CLIENT_INFO);
      await client.connect(new HttpV1(new URL('/mcp', running.baseUrl)));
      expect(client.getServerVersion()).toEqual({
        name: 'guarded-notes',
        version: '3.1.4',
      });
      await client.close();
      const refused = await mcpHttp(running.baseUrl).post(
        rpcRequest(1, 'ping'),
        {
          ...ACCEPT_BOTH,
          authorization: 'Bearer wrong-token',
        },
      );
      expect(refused.status).toBe(401);
      expect(refused.header('www-authenticate')).toBe(
        'Bearer realm="guarded-notes"',
      );
    } finally {
      await running.close();
    }
  });
});
