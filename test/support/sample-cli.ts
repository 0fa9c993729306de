import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv as cliEnv, type Finished, finished } from './cli-process';
import { CLI } from './sample-process';

/**
 * The command-line host, spawned as a client spawns it: the sample's
 * `dist/src/cli.js` (`npm run cli`) and a small fixture app with a slow
 * operation (`test/fixtures/cli-fixture-app.cjs`), over real stdin/stdout.
 */

export const ROOT = join(__dirname, '../..');
export const FIXTURE = join(ROOT, 'test/fixtures/cli-fixture-app.cjs');
export const ALICE = 'ApiKey dev-alice-key';
export const BOB = 'ApiKey dev-bob-key';
export const REQUEST = { timeout: 15_000 } as const;

/** A fresh SQLite file per test: the processes never share a database. */
export function sqliteEnv(): Record<string, string> {
  return {
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'cli-')), 'orders.sqlite'),
  };
}

/** The environment of a spawned CLI, with a database of its own. */
export function childEnv(
  extra: Record<string, string> = {},
): Record<string, string> {
  return cliEnv({ ...sqliteEnv(), ...extra });
}

/** Runs the sample's CLI to the end with `args` (stdin closed). */
export function runCli(
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
export class RawSession {
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

/** A `tools/call` request. */
export const call = (id: number, name: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The text of an answer's first content. */
export const textOf = (answer: Record<string, unknown>) =>
  (answer.result as { content: Array<{ text: string }> }).content[0].text;
