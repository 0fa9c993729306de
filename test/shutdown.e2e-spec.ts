import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  FIXTURE_GRACE_MS,
  ShutdownGraceModule,
  ShutdownHold,
  StuckCalls,
} from './fixtures/shutdown-fixtures';
import { KeepAliveLoad, type WriteOutcome } from './support/keep-alive-load';
import { sqliteDriver } from '../src/database/database.options';
import { DATABASES, skipUnlessEnabled } from './support/databases';
import { withClient } from './support/pg-schema';
import { JSON_TYPE, rpcRequest, sendExact } from './support/mcp-http';
import { envWith, sampleEnv } from './support/sample-app';
import {
  ensureSampleBuilt,
  type Exit,
  startSampleProcess,
} from './support/sample-process';
import { startApp } from './support/start-app';

/** McpModule's default `shutdownGracePeriod`, which the sample keeps. */
const GRACE_MS = 10_000;
const CLIENTS = 50;

type Database = 'sqlite' | 'postgres';

async function storedIds(
  database: Database,
  env: NodeJS.ProcessEnv,
  tenant: string,
): Promise<Set<number>> {
  if (database === 'postgres') {
    const { rows } = await withClient(
      env.DATABASE_URL as string,
      (client) =>
        client.query<{ id: unknown }>(
          'SELECT id FROM orders WHERE "tenantId" = $1',
          [tenant],
        ),
      env.DATABASE_SCHEMA,
    );
    return new Set(rows.map((row) => Number(row.id)));
  }
  const Sqlite = sqliteDriver() as new (file: string) => {
    prepare(sql: string): { all(...args: unknown[]): { id: number }[] };
    close(): void;
  };
  const db = new Sqlite(env.SQLITE_PATH as string);
  try {
    const rows = db
      .prepare('SELECT id FROM orders WHERE tenantId = ?')
      .all(tenant);
    return new Set(rows.map((row) => row.id));
  } finally {
    db.close();
  }
}

const databases: Database[] = DATABASES.filter((db) => db.enabled).map(
  (db) => db.database,
);

describe('npm start under load, then SIGTERM', () => {
  beforeAll(() => ensureSampleBuilt(), 120_000);

  skipUnlessEnabled(DATABASES[1]);

  it.each(databases)(
    'on %s: refuses new work at once, finishes what is under way, exits 0 within the grace period',
    async (database) => {
      const own = await sampleEnv(database);
      onTestFinished(() => own.dispose());
      const env = envWith(own.vars);
      const tenant = 'acme';
      const sample = await startSampleProcess(env);
      const load = new KeepAliveLoad({
        baseUrl: sample.baseUrl,
        tenant,
        clients: CLIENTS,
      });
      let exit: Exit | 'still running';
      let signalledAt: number;
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        signalledAt = performance.now();
        sample.child.kill('SIGTERM');
        exit = await Promise.race([
          sample.exited,
          new Promise<'still running'>((resolve) =>
            setTimeout(() => resolve('still running'), GRACE_MS + 1_000),
          ),
        ]);
      } finally {
        await load.stop();
        if (
          sample.child.exitCode === null &&
          sample.child.signalCode === null
        ) {
          sample.child.kill('SIGKILL');
        }
      }
      const outcomes = load.outcomes;
      const acknowledged = outcomes.filter((o) => o.orderId !== undefined);
      const refused = outcomes.filter((o) => o.status === 503);
      const firstRefusal = Math.min(...refused.map((o) => o.doneAt));
      const exitMs =
        exit === 'still running' ? undefined : exit.at - signalledAt;
      console.log(
        `shutdown on ${database}: exit ${JSON.stringify(exit)} after ${exitMs?.toFixed(0)} ms; ` +
          `${acknowledged.length} writes acknowledged, ${refused.length} refused (503), ` +
          `${outcomes.filter((o) => o.error).length} connection errors`,
      );

      expect(exit, sample.output()).not.toBe('still running');
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exitMs).toBeLessThanOrEqual(GRACE_MS + 1_000);
      expect(acknowledged.length).toBeGreaterThan(0);

      const late = acknowledged.filter((o) => o.sentAt > firstRefusal);
      expect(late.map(describeOutcome)).toEqual([]);
      for (const answer of refused) {
        expect(answer.headers?.connection).toBe('close');
        expect(answer.headers?.['retry-after']).toBeTruthy();
      }
      const unexpected = outcomes.filter(
        (o) =>
          o.error === undefined && o.status !== 503 && o.orderId === undefined,
      );
      expect(unexpected.map(describeOutcome)).toEqual([]);

      const stored = await storedIds(database, env, tenant);
      const lost = acknowledged.filter((o) => !stored.has(o.orderId as number));
      expect(lost.map(describeOutcome)).toEqual([]);
    },
    GRACE_MS + 20_000,
  );
});

function describeOutcome(outcome: WriteOutcome): string {
  return `${outcome.kind} ${outcome.status ?? outcome.error} sent ${outcome.sentAt.toFixed(1)} done ${outcome.doneAt.toFixed(1)}`;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!condition()) {
    if (performance.now() > deadline) {
      throw new Error('Timed out waiting.');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('McpModule shutdownGracePeriod, fixture app', () => {
  it('from shutdown on, /mcp answers 503 with Retry-After and Connection: close; a call still running at the end of the grace period is cut off', async () => {
    const { app, baseUrl } = await startApp(ShutdownGraceModule);
    const stuck = app.get(StuckCalls);
    const hold = app.get(ShutdownHold);
    const agent = new Agent({ keepAlive: true });
    try {
      const call = sendExact(baseUrl, {
        headers: JSON_TYPE,
        body: JSON.stringify(
          rpcRequest(1, 'tools/call', { name: 'stuck_wait', arguments: {} }),
        ),
        agent,
      }).catch((error: unknown) => error);
      await until(() => stuck.started === 1);

      const closeStarted = performance.now();
      const closing = app.close();
      await until(() => hold.reached);
      const refused = await sendExact(baseUrl, {
        headers: JSON_TYPE,
        body: JSON.stringify(rpcRequest(2, 'ping')),
        agent,
      });
      hold.letGo();
      const closed = await Promise.race([
        closing.then(() => performance.now() - closeStarted),
        new Promise<'still closing'>((resolve) =>
          setTimeout(() => resolve('still closing'), FIXTURE_GRACE_MS + 3_000),
        ),
      ]);

      expect(refused.status).toBe(503);
      expect(refused.header('retry-after')).toBe('1');
      expect(refused.header('connection')).toBe('close');
      expect(closed).not.toBe('still closing');
      expect(closed).toBeGreaterThanOrEqual(FIXTURE_GRACE_MS - 50);
      expect(await call).toBeInstanceOf(Error);
    } finally {
      hold.letGo();
      stuck.releaseAll();
      agent.destroy();
    }
  });
});
