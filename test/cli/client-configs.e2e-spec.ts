/**
 * The snippets of docs/get-started/connect-a-client.md (kept in
 * examples/clients/), used the way each client uses them against the sample
 * app. Only the port 3000 is replaced, by the port the test app listens on.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { callTool, CLIENT_INFO } from '../support/mcp-clients';
import { startSampleApp } from '../support/sample-app';
import type { RunningApp } from '../support/start-app';

const execFileAsync = promisify(execFile);
const root = join(__dirname, '../..');
const snippetDir = join(root, 'examples', 'clients');
type Snippet =
  | 'claude_desktop_config.json'
  | 'cursor-mcp.json'
  | 'vscode-mcp.json'
  | 'inspector-cli.sh'
  | 'inspector-web.sh';

/** Bounds every MCP request, so that a wrong snippet fails instead of hanging. */
const REQUEST = { timeout: 10_000 } as const;

let app: RunningApp;
let port: string;
let scratch: string;

beforeAll(async () => {
  app = await startSampleApp();
  port = new URL(app.baseUrl).port;
  scratch = mkdtempSync(join(tmpdir(), 'client-configs-'));
});

afterAll(async () => {
  await app?.close();
  if (scratch) {
    rmSync(scratch, { recursive: true, force: true });
  }
});

/** The snippet file as written, with only the port 3000 replaced. */
function snippet(file: Snippet): string {
  const text = readFileSync(join(snippetDir, file), 'utf8');
  const local = 'http://127.0.0.1:3000/mcp';
  expect(text.split(local), `${file} names ${local} once`).toHaveLength(2);
  return text.replace(local, `http://127.0.0.1:${port}/mcp`);
}

/** The single server entry under `key` (`mcpServers` or `servers`). */
function onlyServer(file: Snippet, key: string): Record<string, unknown> {
  const config = JSON.parse(snippet(file)) as Record<string, unknown>;
  const servers = (config[key] ?? {}) as Record<string, unknown>;
  expect(Object.keys(servers), `${file}: ${key}`).toEqual(['order-desk']);
  return servers['order-desk'] as Record<string, unknown>;
}

function stringMap(value: unknown, what: string): Record<string, string> {
  expect(value, what).toBeTypeOf('object');
  for (const entry of Object.values(value as object)) {
    expect(entry, what).toBeTypeOf('string');
  }
  return value as Record<string, string>;
}

/** Connects, lists the tools, and creates an order as alice would. */
async function useAsAlice(
  transport: Transport,
  context: () => string,
): Promise<void> {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport, REQUEST).catch((error: unknown) => {
      throw new Error(`connect failed: ${String(error)}\n${context()}`, {
        cause: error,
      });
    });
    const { tools } = await client.listTools({}, REQUEST);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['orders_list', 'orders_create']),
    );
    const created = await callTool(client, 'orders_create', {
      name: 'widget',
      amount: 3,
    });
    expect(created.isError, `${created.text}\n${context()}`).toBe(false);
    expect(created.structuredContent).toMatchObject({
      name: 'widget',
      amount: 3,
    });
  } finally {
    await client.close();
  }
}

/**
 * The arguments the shell would hand to `npx` when running the snippet
 * (quotes and line continuations resolved by bash itself).
 */
function npxArguments(file: Snippet): string[] {
  const run = spawnSync(
    'bash',
    ['-c', 'npx() { printf "%s\\0" "$@"; }; eval "$1"', 'bash', snippet(file)],
    { encoding: 'utf8', timeout: 5_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').slice(0, -1);
}

describe('MCP client snippets (examples/clients)', () => {
  it('Claude Desktop: npx mcp-remote, spawned over stdio', async () => {
    const server = onlyServer('claude_desktop_config.json', 'mcpServers');
    expect(server.command).toBeTypeOf('string');
    expect(Array.isArray(server.args)).toBe(true);
    const configDir = join(scratch, 'mcp-auth');
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const transport = new StdioClientTransport({
      command: server.command as string,
      args: server.args as string[],
      env: {
        ...inherited,
        ...stringMap(server.env ?? {}, 'env'),
        // Test only: mcp-remote keeps its state here rather than in
        // ~/.mcp-auth, and npx runs the devDependency, never a download.
        MCP_REMOTE_CONFIG_DIR: configDir,
        npm_config_offline: 'true',
      },
      cwd: root,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await useAsAlice(transport, () => `mcp-remote stderr:\n${stderr}`);
    expect(existsSync(configDir), 'MCP_REMOTE_CONFIG_DIR is honoured').toBe(
      true,
    );
  });

  it.each([
    ['Cursor', 'cursor-mcp.json', 'mcpServers'],
    ['VS Code', 'vscode-mcp.json', 'servers'],
  ] as const)(
    '%s: Streamable HTTP with url and headers',
    async (_, file, key) => {
      const server = onlyServer(file, key);
      if (file === 'vscode-mcp.json') {
        expect(server.type).toBe('http');
      }
      expect(server.url).toBeTypeOf('string');
      const transport = new StreamableHTTPClientTransport(
        new URL(server.url as string),
        { requestInit: { headers: stringMap(server.headers, 'headers') } },
      );
      await useAsAlice(transport, () => file);
    },
  );

  it('MCP Inspector CLI: run as written, it prints the tools', async () => {
    // Asynchronously: the app under test answers from this process.
    const run = await execFileAsync(
      'bash',
      ['-c', snippet('inspector-cli.sh')],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 20_000,
        // npx runs the devDependency, never a download.
        env: { ...process.env, npm_config_offline: 'true' },
      },
    );

    const { tools } = JSON.parse(run.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['orders_list', 'orders_create']),
    );
  });

  /**
   * The web UI cannot be clicked through here: bash parses each Inspector
   * snippet with `npx` stubbed, the arguments are checked against the
   * Inspector's options, and the connection they describe is replayed with
   * the SDK client.
   */
  it.each([
    ['CLI', 'inspector-cli.sh', ['--header', '--method', '--transport']],
    ['web UI', 'inspector-web.sh', ['--header', '--server-url', '--transport']],
  ] as const)(
    'MCP Inspector %s: its arguments, replayed with the SDK client',
    async (mode, file, optionNames) => {
      const argv = npxArguments(file);
      expect(argv[0]).toBe('@modelcontextprotocol/inspector');
      const cli = mode === 'CLI';
      expect(argv[1] === '--cli', 'mode flag').toBe(cli);
      const options: Record<string, string[]> = {};
      const positional: string[] = [];
      for (let i = cli ? 2 : 1; i < argv.length; i++) {
        if (argv[i].startsWith('-')) {
          (options[argv[i]] ??= []).push(argv[++i]);
        } else {
          positional.push(argv[i]);
        }
      }
      expect(Object.keys(options).sort()).toEqual(optionNames);
      expect(options['--transport']).toEqual(['http']);
      if (cli) {
        expect(options['--method']).toEqual(['tools/list']);
      }
      const urls = [...positional, ...(options['--server-url'] ?? [])];
      expect(urls).toHaveLength(1);
      // The Inspector's `--header "Name: Value"`.
      const headers = Object.fromEntries(
        options['--header'].map((header) => {
          const match = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(header);
          expect(match, `--header ${header}`).not.toBeNull();
          return [match![1], match![2]];
        }),
      );
      const transport = new StreamableHTTPClientTransport(new URL(urls[0]), {
        requestInit: { headers },
      });
      await useAsAlice(transport, () => `npx ${argv.join(' ')}`);
    },
  );
});
