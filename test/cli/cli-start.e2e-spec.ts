import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, type Finished, finished } from '../support/cli-process';
import { CLI } from '../support/sample-process';

/**
 * The stdio host's start (issue 26): runCli's loader form answers
 * `initialize` and `server/discover` before the app has loaded, with the
 * text the app itself answers; everything else waits for the app; an app
 * that does not load still ends the command clearly.
 */

const LAZY = join(__dirname, '../fixtures/cli-lazy-app.cjs');
const PROBE = join(__dirname, '../fixtures/first-answer-packages.cjs');
/** Packages of the app and of Nest's world (Nest's own are ES modules). */
const APP_PACKAGES = [
  'typeorm',
  'rxjs',
  'class-validator',
  'class-transformer',
  'reflect-metadata',
  'nestjs-i18n',
  '@nestops/operations',
  '@nestops/typeorm',
];

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const line = (id: number, method: string, params: object = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const initialize = (id: number) =>
  line(id, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'cli-start', version: '1' },
  });
const discover = (id: number) => line(id, 'server/discover', { _meta: META });

/** Spawns `args` with `input` written to stdin, then closed. */
function run(
  args: readonly string[],
  input: string,
  env: Record<string, string> = {},
): Promise<Finished> {
  const child = spawn(process.execPath, args, {
    env: childEnv({
      SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'cli-start-')), 'o.sqlite'),
      ...env,
    }),
  });
  child.stdin.end(input);
  return finished(child);
}

/** Each stdout line by the id it answers, as written. */
function byId(stdout: string): Map<unknown, string> {
  return new Map(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((text) => [(JSON.parse(text) as { id?: unknown }).id, text]),
  );
}

describe("the stdio host's start", () => {
  it('answers the greetings before the app loads, with the bytes the app answers them with after', async () => {
    // 1 and 2 come before the app (nothing of it is loaded at the first
    // answer); tools/list waits for the app, and 4 and 5, read after it,
    // are answered by the app's dispatcher.
    const result = await run(
      ['--require', PROBE, CLI, 'mcp'],
      initialize(1) +
        discover(2) +
        line(3, 'tools/list') +
        initialize(4) +
        discover(5),
      { LOADED_PACKAGES: APP_PACKAGES.join(',') },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('at the first answer: \n');
    const answers = byId(result.stdout);
    expect([...answers.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
    const withoutId = (id: number) =>
      answers.get(id)?.replace(`"id":${id},`, '"id":0,');
    expect(withoutId(1)).toBe(withoutId(4));
    expect(withoutId(2)).toBe(withoutId(5));
    expect(JSON.parse(answers.get(1) as string).result).toMatchObject({
      serverInfo: { name: 'order-desk' },
      instructions: 'Order desk',
    });
    expect(
      JSON.parse(answers.get(3) as string).result.tools.length,
    ).toBeGreaterThan(0);
  });

  it('loads the app before its first answer in the eager form', async () => {
    const result = await run(
      [
        '--require',
        PROBE,
        join(__dirname, '../fixtures/cli-fixture-app.cjs'),
        'mcp',
      ],
      initialize(1),
      { LOADED_PACKAGES: 'reflect-metadata,@nestops/operations' },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'at the first answer: reflect-metadata,@nestops/operations\n',
    );
  });

  it('serves a lazy app whose runCli server options agree with McpModule', async () => {
    const result = await run(
      [LAZY, 'mcp'],
      initialize(1) + line(2, 'ping') + discover(3),
    );
    expect(result.code).toBe(0);
    const answers = byId(result.stdout);
    expect(JSON.parse(answers.get(1) as string).result).toMatchObject({
      serverInfo: { name: 'cli-lazy' },
      instructions: 'Loaded late',
    });
    expect(JSON.parse(answers.get(2) as string).result).toEqual({});
    expect(JSON.parse(answers.get(3) as string).result.instructions).toBe(
      'Loaded late',
    );
  });

  it('an app that does not load: the waiting request gets -32603, stderr says why, exit 70', async () => {
    const result = await run(
      [LAZY, 'mcp'],
      initialize(1) + line(2, 'tools/list'),
      { LAZY_APP: 'broken' },
    );
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(
      /^cli-lazy: the application did not start: Cannot find module '\.\/no-such-app-module\.cjs'/m,
    );
    const answers = byId(result.stdout);
    expect(JSON.parse(answers.get(1) as string).result.serverInfo.name).toBe(
      'cli-lazy',
    );
    const failed = JSON.parse(answers.get(2) as string);
    expect(failed.error.code).toBe(-32603);
    expect(failed.error.message).toMatch(
      /^The server did not start: Cannot find module '\.\/no-such-app-module\.cjs'/,
    );
  });

  it("ends, naming both, when runCli's server options do not say what McpModule's do", async () => {
    const result = await run(
      [LAZY, 'mcp'],
      initialize(1) + line(2, 'tools/list'),
      { LAZY_APP: 'mismatch' },
    );
    expect(result.code).toBe(70);
    expect(result.stderr).toContain(
      `cli-lazy: runCli's server options answered initialize and server/discover before the app had loaded with {"serverName":"cli-lazy","serverVersion":"0.1.0","instructions":"Something else"}, but the app answers with {"serverName":"cli-lazy","serverVersion":"0.1.0","instructions":"Loaded late"}`,
    );
    const failed = JSON.parse(byId(result.stdout).get(2) as string);
    expect(failed.error.code).toBe(-32603);
  });
});
