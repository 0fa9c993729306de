import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { finished } from '../support/cli-process';
import { CLI } from '../support/sample-process';
import { ALICE, BOB, childEnv, runCli } from '../support/sample-cli';

/** The sample's `operations` and `invoke` commands. */

describe('operations and invoke', () => {
  it('operations: a table with tool names, carriers and permissions; in API-key mode passport, passport-jwt and jwks-rsa stay unloaded', async () => {
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
    expect(run.stdout.split('\n')[0]).toMatch(
      /^OPERATION\s+TOOL\s+CARRIERS\s+PERMISSIONS\s+RESOURCE$/,
    );
    expect(run.stdout).toMatch(
      /^orders\.create\s+orders_create\s+mcp,cli\s+orders\.write\s+-$/m,
    );
    expect(run.stdout).toMatch(
      /^orders\.get\s+orders_get\s+mcp,cli\s+orders\.read\s+orders:\/\/\{id\}$/m,
    );
    expect(run.stdout).toMatch(
      /^PROMPT\s+ARGUMENTS\s+PERMISSIONS\ndraft-restock-order\s+product,urgency\?\s+orders\.read$/m,
    );
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
    const all = JSON.parse(run.stdout) as Array<{ id?: string }>;
    const rows = all.filter((row) => row.id !== undefined);
    expect(all.filter((row) => row.id === undefined)).toEqual([
      {
        prompt: 'draft-restock-order',
        arguments: [
          { name: 'product', required: true },
          { name: 'urgency', required: false },
        ],
        carriers: ['mcp'],
        permissions: ['orders.read'],
      },
    ]);
    expect(rows.map((row) => row.id).sort()).toEqual([
      'orders.create',
      'orders.delete',
      'orders.describe',
      'orders.get',
      'orders.import',
      'orders.label',
      'orders.list',
      'orders.recent',
      'orders.report',
      'orders.schedule-delivery',
      'orders.search',
    ]);
    expect(rows[0]).toEqual({
      id: 'orders.create',
      tool: 'orders_create',
      resource: null,
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

  it('invoke: of content without a structured result, prints its text on stdout and names its image on stderr', async () => {
    const child = spawn(
      process.execPath,
      [
        join(__dirname, '../fixtures/cli-fixture-app.cjs'),
        'invoke',
        'timing.poster',
      ],
      { env: childEnv() },
    );
    child.stdin.end();
    const run = await finished(child);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Poster of the day\n');
    expect(run.stderr).toMatch(/^image image\/png, 9 bytes$/m);
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

/** The stdio client configurations of docs/guides/stdio-and-cli.md (examples/stdio). */
