import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  childEnv as cliEnv,
  type Finished,
  finished,
} from '../support/cli-process';
import { callTool, CLIENT_INFO } from '../support/mcp-clients';
import { CLI } from '../support/sample-process';

/**
 * The command-line host, spawned as a client spawns it: the sample's
 * `dist/src/cli.js` (`npm run cli`) and a small fixture app with a slow
 * operation (`test/fixtures/cli-fixture-app.cjs`), over real stdin/stdout.
 */

const ROOT = join(__dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/cli-fixture-app.cjs');
const ALICE = 'ApiKey dev-alice-key';
const BOB = 'ApiKey dev-bob-key';
const REQUEST = { timeout: 15_000 } as const;

/** A fresh SQLite file per test: the processes never share a database. */
function sqliteEnv(): Record<string, string> {
  return {
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'cli-')), 'orders.sqlite'),
  };
}

/** The environment of a spawned CLI, with a database of its own. */
function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  return cliEnv({ ...sqliteEnv(), ...extra });
}

/** Runs the sample's CLI to the end with `args` (stdin closed). */
function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Finished> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: childEnv(env),
  });
  child.stdin.end();
  return finished(child);
}

/** A raw `mcp` session: lines in, parsed answers out, in the order they come. */
class RawSession {
  readonly answers: Array<Record<string, unknown>> = [];
  readonly stdoutBytes: Buffer[] = [];
  readonly done: Promise<Finished>;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      this.stdoutBytes.push(chunk);
      pending += chunk.toString('latin1');
      let newline: number;
      while ((newline = pending.indexOf('\n')) !== -1) {
        this.answers.push(
          JSON.parse(pending.slice(0, newline)) as Record<string, unknown>,
        );
        pending = pending.slice(newline + 1);
        this.waiters.splice(0).forEach((wake) => wake());
      }
    });
    this.done = finished(child);
  }

  static start(
    entry: string,
    args: readonly string[],
    env: Record<string, string> = {},
  ): RawSession {
    return new RawSession(
      spawn(process.execPath, [entry, 'mcp', ...args], { env: childEnv(env) }),
    );
  }

  send(message: unknown): void {
    this.sendLine(JSON.stringify(message));
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`, 'utf8');
  }

  async answer(id: unknown): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.answers.find((answer) => answer.id === id);
      if (found) {
        return found;
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  close(): Promise<Finished> {
    this.child.stdin.end();
    return this.done;
  }
}

const call = (id: number, name: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

const textOf = (answer: Record<string, unknown>) =>
  (answer.result as { content: Array<{ text: string }> }).content[0].text;

describe('the sample over stdio with the official SDK clients', () => {
  async function v1(args: string[], env: Record<string, string>) {
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(
      new StdioV1({
        command: process.execPath,
        args: [CLI, 'mcp', ...args],
        env: childEnv(env),
        stderr: 'pipe',
      }),
      REQUEST,
    );
    return client;
  }

  it('SDK v1: lists the tools and creates an order as alice (MCP_AUTHORIZATION)', async () => {
    const client = await v1([], { MCP_AUTHORIZATION: ALICE });
    try {
      const { tools } = await client.listTools({}, REQUEST);
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'orders_create',
        'orders_delete',
        'orders_get',
        'orders_import',
        'orders_list',
        'orders_search',
      ]);
      expect(tools.find((t) => t.name === 'orders_create')?.title).toBe(
        'Create an order',
      );
      const created = await callTool(client, 'orders_create', {
        name: 'widget',
        amount: 3,
      });
      expect(created).toMatchObject({
        isError: false,
        structuredContent: { name: 'widget', amount: 3, tenant: 'default' },
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v1: --authorization wins over MCP_AUTHORIZATION; bob is denied', async () => {
    const client = await v1(['--authorization', BOB], {
      MCP_AUTHORIZATION: ALICE,
    });
    try {
      expect(
        await callTool(client, 'orders_create', { name: 'x', amount: 1 }),
      ).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v1: --locale zh-CN gives the Chinese titles and failure texts', async () => {
    const client = await v1(['--locale', 'zh-CN', '--authorization', BOB], {});
    try {
      const { tools } = await client.listTools({}, REQUEST);
      expect(tools.find((t) => t.name === 'orders_create')?.title).toBe(
        '创建订单',
      );
      expect(
        await callTool(client, 'orders_create', { name: 'x', amount: 1 }),
      ).toMatchObject({
        isError: true,
        text: "SECURITY_DENIED_004: 缺少权限 'orders.write'。",
      });
    } finally {
      await client.close();
    }
  });

  it('SDK v2: lists the tools, creates as alice and is denied as bob', async () => {
    for (const [key, denied] of [
      [ALICE, false],
      [BOB, true],
    ] as const) {
      const client = new ClientV2(CLIENT_INFO);
      await client.connect(
        new StdioV2({
          command: process.execPath,
          args: [CLI, 'mcp'],
          env: childEnv({ MCP_AUTHORIZATION: key }),
          stderr: 'pipe',
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(6);
        const result = await client.callTool({
          name: 'orders_create',
          arguments: { name: 'v2', amount: 2 },
        });
        expect(result.isError === true).toBe(denied);
        if (denied) {
          expect((result.content as Array<{ text: string }>)[0].text).toMatch(
            /^SECURITY_DENIED_004: /,
          );
        }
      } finally {
        await client.close();
      }
    }
  });
});

describe('mcp: the raw stdin/stdout contract', () => {
  it('round-trips a Chinese argument while stdout stays pure ASCII', async () => {
    const session = RawSession.start(CLI, ['--authorization', ALICE]);
    const name = '茶 🍵 Grüße';
    session.send(call(1, 'orders_create', { name, amount: 2 }));
    const answer = await session.answer(1);
    const finished = await session.close();
    const bytes = Buffer.concat(session.stdoutBytes);
    expect([...bytes].every((byte) => byte < 0x80)).toBe(true);
    expect(bytes.toString('latin1')).toContain('\\u8336 \\ud83c\\udf75');
    expect(
      (answer.result as { structuredContent: { name: string } })
        .structuredContent.name,
    ).toBe(name);
    expect(finished.code).toBe(0);
  });

  it('answers a malformed line with its error, a notification with nothing, and goes on', async () => {
    const session = RawSession.start(CLI, []);
    session.sendLine('{"jsonrpc":"2.0","id":1,"method":');
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    session.sendLine('[]');
    session.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await session.answer(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {},
    });
    const finished = await session.close();
    expect(session.answers).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32700 }),
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: expect.objectContaining({ code: -32600 }),
      },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(finished.code).toBe(0);
  });

  it('follows the 2026-07-28 era rules by the body alone, next to 2025 messages', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const session = RawSession.start(CLI, ['--authorization', BOB]);
    session.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: meta },
    });
    session.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'orders_create',
        arguments: { name: 'x', amount: 1 },
        _meta: meta,
      },
    });
    session.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2026-07-28', _meta: meta },
    });
    session.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/list',
      params: {
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      },
    });
    session.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    const [discovered, denied, initialize, noCapabilities, ping] =
      await Promise.all([1, 2, 3, 4, 5].map((id) => session.answer(id)));
    await session.close();
    expect(discovered.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
    });
    expect(denied.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [
        {
          type: 'text',
          text: "SECURITY_DENIED_004: Permission 'orders.write' is missing.",
        },
      ],
    });
    expect(initialize.error).toMatchObject({ code: -32601 });
    expect(noCapabilities.error).toMatchObject({ code: -32602 });
    expect(ping).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });

  it('refuses a line longer than maxBodySize and reads the next one', async () => {
    const session = RawSession.start(CLI, []);
    session.sendLine(`"${'x'.repeat(1024 * 1024 + 10)}"`);
    session.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await session.answer(3);
    await session.close();
    expect(session.answers[0]).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect((session.answers[0].error as { message: string }).message).toMatch(
      /at most 1048576 bytes/,
    );
  });

  it('answers a fast call while a slow one is under way', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send(call(1, 'timing_wait'));
    session.send(call(2, 'timing_echo'));
    await session.answer(2);
    expect(session.answers.map((answer) => answer.id)).toEqual([2]);
    await session.answer(1);
    expect((await session.close()).code).toBe(0);
  });

  it('writes the messages a call sends ahead of its answer as lines of their own: three lines', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send(call(1, 'timing_report'));
    await session.answer(1);
    expect((await session.close()).code).toBe(0);
    const note = (data: string) => ({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data },
    });
    expect(session.answers).toEqual([
      note('first'),
      note('second'),
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          content: [{ type: 'text', text: '{"reported":2}' }],
          structuredContent: { reported: 2 },
        },
      },
    ]);
  });

  it('finishes the calls under way when stdin closes, then exits 0', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send(call(1, 'timing_wait'));
    const finished = await session.close();
    expect(finished.code).toBe(0);
    expect(session.answers).toEqual([
      expect.objectContaining({
        id: 1,
        result: expect.objectContaining({
          structuredContent: { waited: 1500 },
        }),
      }),
    ]);
  });

  it('keeps every log line off stdout: Nest, the app and console.log go to stderr', async () => {
    const session = RawSession.start(FIXTURE, []);
    session.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await session.answer(1);
    const finished = await session.close();
    expect(finished.stdout).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(finished.stderr).toContain('a banner on stdout');
    expect(finished.stderr).toContain('a warning from the app');
  });

  it('applies --timeout to every call', async () => {
    const session = RawSession.start(FIXTURE, ['--timeout', '0.2']);
    session.send(call(1, 'timing_wait'));
    expect(textOf(await session.answer(1))).toBe(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 0.2 s.',
    );
    await session.close();
  });

  it('answers calls with invalid credentials SECURITY_DENIED_003 and goes on', async () => {
    const session = RawSession.start(CLI, ['--authorization', 'ApiKey wrong']);
    session.send(call(1, 'orders_list'));
    const denied = await session.answer(1);
    session.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const listed = await session.answer(2);
    await session.close();
    expect(denied.result).toMatchObject({ isError: true });
    expect(textOf(denied)).toMatch(/^SECURITY_DENIED_003: /);
    expect((listed.result as { tools: unknown[] }).tools).toHaveLength(6);
  });

  it('carries --tenant and --correlation into every call', async () => {
    const session = RawSession.start(CLI, [
      '--authorization',
      ALICE,
      '--tenant',
      'acme',
      '--correlation',
      'cli-1',
    ]);
    session.send(call(1, 'orders_create', { name: 'a', amount: 1 }));
    const created = await session.answer(1);
    await session.close();
    expect(created.result).toMatchObject({
      structuredContent: { tenant: 'acme' },
    });
  });

  it('refuses a tenant the key does not hold, on every call of the session', async () => {
    const session = RawSession.start(CLI, [
      '--authorization',
      BOB,
      '--tenant',
      'globex',
    ]);
    session.send(call(1, 'orders_list'));
    const refused = await session.answer(1);
    await session.close();
    expect(refused.result).toMatchObject({ isError: true });
    expect(textOf(refused)).toBe(
      "SECURITY_DENIED_005: Tenant 'globex' is not one of the caller's tenants.",
    );
  });

  it.each([
    [['--timeout', '0'], '--timeout'],
    [['--timeout', 'abc'], '--timeout'],
    [['--timeout', '-1'], '--timeout'],
    [['--authorization', 'nospace'], '--authorization'],
    [['--tenant', ''], '--tenant'],
    [['--locale', 'zh CN'], '--locale'],
    [['--unknown'], '--unknown'],
  ])(
    'exits 64 with one usage line and no session for %j',
    async (args, option) => {
      const run = await runCli(['mcp', ...args]);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(option);
      expect(lines[0]).toContain('usage: order-desk mcp');
    },
  );

  it('exits 64 for invalid credentials in MCP_AUTHORIZATION too', async () => {
    const run = await runCli(['mcp'], { MCP_AUTHORIZATION: 'nospace' });
    expect(run.code).toBe(64);
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('operations and invoke', () => {
  it('operations: a table with tool names, carriers and permissions', async () => {
    const run = await runCli(['operations']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^OPERATION\s+TOOL\s+CARRIERS\s+PERMISSIONS$/,
    );
    expect(run.stdout).toMatch(
      /^orders\.create\s+orders_create\s+mcp,cli\s+orders\.write$/m,
    );
  });

  it('starts without the passport verifier in API-key mode: passport, passport-jwt and jwks-rsa stay unloaded', async () => {
    const packages = ['passport', 'passport-jwt', 'jwks-rsa', 'jsonwebtoken'];
    const child = spawn(
      process.execPath,
      [
        '--require',
        join(__dirname, '../fixtures/loaded-packages.cjs'),
        CLI,
        'operations',
      ],
      { env: childEnv({ LOADED_PACKAGES: packages.join(',') }) },
    );
    child.stdin.end();
    const run = await finished(child);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('loaded packages: \n');
    // The same probe sees them in passport mode, where the verifier is used.
    const oauth = spawn(
      process.execPath,
      [
        '--require',
        join(__dirname, '../fixtures/loaded-packages.cjs'),
        CLI,
        'operations',
      ],
      {
        env: childEnv({
          LOADED_PACKAGES: packages.join(','),
          OAUTH_ISSUER: 'http://127.0.0.1:9/issuer',
          OAUTH_VERIFIER: 'passport',
        }),
      },
    );
    oauth.stdin.end();
    const withOauth = await finished(oauth);
    expect(withOauth.code).toBe(0);
    expect(withOauth.stderr).toContain(
      `loaded packages: ${packages.join(',')}\n`,
    );
  });

  it('operations --json: every operation for scripts', async () => {
    const run = await runCli(['operations', '--json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ id: string }>;
    expect(rows.map((row) => row.id).sort()).toEqual([
      'orders.create',
      'orders.delete',
      'orders.get',
      'orders.import',
      'orders.list',
      'orders.search',
    ]);
    expect(rows[0]).toEqual({
      id: 'orders.create',
      tool: 'orders_create',
      carriers: ['mcp', 'cli'],
      permissions: ['orders.write'],
      readOnly: false,
      stability: 'stable',
    });
  });

  it('invoke: prints the result JSON and exits 0', async () => {
    const run = await runCli(
      ['invoke', 'orders.create', '{"name":"茶","amount":4}'],
      { MCP_AUTHORIZATION: ALICE },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      name: '茶',
      amount: 4,
      tenant: 'default',
    });
    expect(run.stderr).not.toMatch(/ERROR/);
  });

  it('invoke: prints <CODE>: <message> on stderr and exits 1', async () => {
    const run = await runCli([
      'invoke',
      'orders.create',
      '{"name":"x","amount":1}',
      '--authorization',
      BOB,
      '--locale',
      'zh-CN',
    ]);
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "SECURITY_DENIED_004: 缺少权限 'orders.write'。\n",
    });
  });

  it('invoke: a tenant the key does not hold exits 1 with SECURITY_DENIED_005 and writes nothing', async () => {
    const env = { MCP_AUTHORIZATION: BOB };
    const run = await runCli(
      [
        'invoke',
        'orders.list',
        '{}',
        '--tenant',
        'initech',
        '--locale',
        'zh-CN',
      ],
      env,
    );
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "SECURITY_DENIED_005: 租户 'initech' 不属于调用者。\n",
    });
  });

  it('invoke: a validation failure exits 1 and names the fields', async () => {
    const run = await runCli(
      ['invoke', 'orders.create', '{"name":"","amount":0}'],
      { MCP_AUTHORIZATION: ALICE },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'VALIDATION_INVALID_001: Invalid input: name should not be empty; amount must not be less than 1\n',
    );
  });

  it.each([
    [['invoke', 'orders.nope'], "unknown operation 'orders.nope'"],
    [['invoke', 'orders.create', '{bad'], 'the input is not JSON'],
    [['invoke', 'orders.create', '[1]'], 'must be a JSON object'],
    [['invoke'], "missing required argument 'operation-id'"],
  ])('invoke exits 64 for %j', async (args, reason) => {
    const run = await runCli(args);
    expect(run.code).toBe(64);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(reason);
  });

  it('each command has --help', async () => {
    for (const command of ['operations', 'invoke', 'mcp']) {
      const run = await runCli([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toMatch(/^Usage: order-desk /);
    }
    const mcp = await runCli(['mcp', '--help']);
    for (const option of [
      '--authorization',
      '--tenant',
      '--correlation',
      '--locale',
      '--timeout',
    ]) {
      expect(mcp.stdout).toContain(option);
    }
  });
});

/** The stdio client configurations of the README (examples/stdio). */
describe('stdio client snippets (examples/stdio)', () => {
  const PLACEHOLDER = '/absolute/path/to/nestops';

  it.each([
    ['claude_desktop_config.json', 'mcpServers'],
    ['cursor-mcp.json', 'mcpServers'],
    ['vscode-mcp.json', 'servers'],
  ])('%s starts the sample as written', async (file, key) => {
    const text = readFileSync(join(ROOT, 'examples/stdio', file), 'utf8');
    expect(text).toContain(PLACEHOLDER);
    const config = JSON.parse(text.replaceAll(PLACEHOLDER, ROOT)) as Record<
      string,
      Record<string, { command: string; args: string[]; env: object }>
    >;
    const server = config[key]['order-desk'];
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(
      new StdioV1({
        command: server.command,
        args: server.args,
        // As written, plus a database of the test's own.
        env: childEnv({ ...(server.env as Record<string, string>) }),
        stderr: 'pipe',
      }),
      REQUEST,
    );
    try {
      const created = await callTool(client, 'orders_create', {
        name: 'from the README',
        amount: 1,
      });
      expect(created.isError, created.text).toBe(false);
    } finally {
      await client.close();
    }
  });
});
