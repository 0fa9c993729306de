import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  databaseOptions,
  sqliteDriver,
} from '../../src/database/database.options';
import { childEnv, finished } from '../support/cli-process';
import { resultJson, mcpHttp } from '../support/mcp-http';
import { startSampleApp, type RunningSample } from '../support/sample-app';
import { CLI } from '../support/sample-process';

/**
 * The sample on SQLite while another connection holds the database
 * (`BEGIN EXCLUSIVE`, as `sqlite3 orders.sqlite` would): the event loop
 * stays free, so a ping is answered while the lock is held, a create waits
 * for the lock without blocking and then succeeds, or fails within its
 * deadline (`--timeout`, INTERNAL_TIMEOUT_001) or once the wait limit
 * passes (SQLITE_BUSY_TIMEOUT_MS, INTERNAL_UNAVAILABLE_002, retryable),
 * writing nothing.
 */

const ALICE = { authorization: 'ApiKey dev-alice-key' };

interface Database {
  exec(sql: string): void;
  prepare(sql: string): { get(...params: unknown[]): unknown };
  close(): void;
}

/** A connection of its own to `file`, as another process would open it. */
function openOther(file: string): Database {
  const Driver = sqliteDriver() as new (file: string) => Database;
  return new Driver(file);
}

function ordersNamed(db: Database, name: string): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM orders WHERE name = ?').get(name) as {
      n: number;
    }
  ).n;
}

describe('SQLite locked by another connection', () => {
  let running: RunningSample;
  let file: string;
  let other: Database;

  beforeAll(async () => {
    running = await startSampleApp('sqlite');
    file = running.dataSource.options.database as string;
    other = openOther(file);
  });

  afterAll(async () => {
    other?.close();
    await running?.close();
  });

  it('answers a ping while the lock is held for 2 s; the create waits for it, then succeeds once', async () => {
    const runner = running.dataSource.driver.createQueryRunner('master');
    other.exec('BEGIN EXCLUSIVE');
    let locked = true;
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('COMMIT');
        locked = false;
        resolve();
      }, 2000),
    );
    let created = false;
    const create = mcpHttp(running.baseUrl)
      .callTool('orders_create', { name: 'after the lock', amount: 5 }, ALICE)
      .finally(() => (created = true));
    // The create has begun its transaction and waits for the lock.
    while (!runner.isTransactionActive && locked) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(locked).toBe(true);
    const ping = await mcpHttp(running.baseUrl).request(
      'ping',
      undefined,
      ALICE,
    );
    expect(ping.json()).toMatchObject({ result: {} });
    // Answered while the other connection still holds the database and the
    // create still waits.
    expect(locked).toBe(true);
    expect(created).toBe(false);
    await released;
    const order = resultJson<{ id: number; name: string }>(await create);
    expect(order.name).toBe('after the lock');
    expect(ordersNamed(other, 'after the lock')).toBe(1);
  });

  /** Runs the sample's CLI on the sample's database while the lock is held. */
  async function whileLocked(
    args: readonly string[],
    env: Record<string, string> = {},
    input?: string,
  ) {
    other.exec('BEGIN EXCLUSIVE');
    try {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: childEnv({ SQLITE_PATH: file, ...env }),
      });
      child.stdin.end(input);
      return await finished(child);
    } finally {
      other.exec('COMMIT');
    }
  }

  it('invoke --timeout 0.5: INTERNAL_TIMEOUT_001 while the lock is still held, nothing written', async () => {
    const run = await whileLocked([
      'invoke',
      'orders.create',
      '{"name":"timed out","amount":5}',
      '--authorization',
      ALICE.authorization,
      '--timeout',
      '0.5',
    ]);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 0.5 s.',
    );
    expect(run.code).toBe(1);
    expect(ordersNamed(other, 'timed out')).toBe(0);
  });

  it('mcp --timeout 0.5: the ping is answered before the create, which times out; nothing written', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'orders_create',
          arguments: { name: 'stdio timed out', amount: 5 },
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ];
    const run = await whileLocked(
      ['mcp', '--authorization', ALICE.authorization, '--timeout', '0.5'],
      {},
      lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    );
    const answers = run.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id: number;
            result: { isError?: boolean; content?: Array<{ text: string }> };
          },
      );
    expect(answers.map((a) => a.id)).toEqual([2, 1]);
    expect(answers[1].result.isError).toBe(true);
    expect(answers[1].result.content?.[0].text).toBe(
      'INTERNAL_TIMEOUT_001: The operation did not finish within 0.5 s.',
    );
    expect(ordersNamed(other, 'stdio timed out')).toBe(0);
  });

  it('a lock held past SQLITE_BUSY_TIMEOUT_MS: INTERNAL_UNAVAILABLE_002, retryable, nothing written', async () => {
    const run = await whileLocked(
      [
        'invoke',
        'orders.create',
        '{"name":"gave up","amount":5}',
        '--authorization',
        ALICE.authorization,
      ],
      { SQLITE_BUSY_TIMEOUT_MS: '300' },
    );
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'INTERNAL_UNAVAILABLE_002: The database stayed locked by another connection for 0.3 s; retry later.',
    );
    expect(run.code).toBe(1);
    expect(ordersNamed(other, 'gave up')).toBe(0);
  });

  it('refuses an SQLITE_BUSY_TIMEOUT_MS that is not a whole number of milliseconds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'busy-'));
    for (const value of ['-1', '1.5', '5s', '1e3']) {
      expect(() =>
        databaseOptions({
          SQLITE_PATH: join(dir, 'x.sqlite'),
          SQLITE_BUSY_TIMEOUT_MS: value,
        }),
      ).toThrow(
        `SQLITE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, not '${value}'.`,
      );
    }
    expect(
      databaseOptions({ SQLITE_PATH: join(dir, 'x.sqlite') }),
    ).toMatchObject({ timeout: 5000 });
  });
});

describe('SQLite locked past SQLITE_BUSY_TIMEOUT_MS, over REST', () => {
  it('answers POST /orders 503 with the retryable failure text, not 500; nothing written', async () => {
    const sample = await startSampleApp('sqlite', {
      env: { SQLITE_BUSY_TIMEOUT_MS: '300' },
    });
    const other = openOther(sample.dataSource.options.database as string);
    try {
      other.exec('BEGIN EXCLUSIVE');
      const rest = await fetch(`${sample.baseUrl}/orders`, {
        method: 'POST',
        headers: { ...ALICE, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'rest gave up', amount: 5 }),
      }).finally(() => other.exec('COMMIT'));
      expect(rest.status).toBe(503);
      expect(await rest.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message:
          'INTERNAL_UNAVAILABLE_002: The database stayed locked by another connection for 0.3 s; retry later.',
      });
      expect(ordersNamed(other, 'rest gave up')).toBe(0);
    } finally {
      other.close();
      await sample.close();
    }
  });
});
