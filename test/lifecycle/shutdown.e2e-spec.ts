import { performance } from 'node:perf_hooks';
import { KeepAliveLoad, type WriteOutcome } from '../support/keep-alive-load';
import { sqliteDriver } from '../../src/database/database.options';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { withClient } from '../support/pg-schema';
import { envWith, sampleEnv } from '../support/sample-app';
import { type Exit, startSampleProcess } from '../support/sample-process';
import type { McpReply } from '../support/mcp-http';
import { readiness, until } from '../support/shutdown';

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

/** The sample's drain delay in this test (`SHUTDOWN_DRAIN_DELAY`). */
const DRAIN_MS = 3_000;

describe('npm start under load, then SIGTERM', () => {
  skipUnlessEnabled(DATABASES[1]);

  it.each(databases)(
    'on %s: /ready answers 503 at once while the work goes on being answered; once the load stops, every request was answered, with no connection error, and the process exits 0',
    async (database) => {
      const own = await sampleEnv(database);
      onTestFinished(() => own.dispose());
      const env = {
        ...envWith(own.vars),
        SHUTDOWN_DRAIN_DELAY: String(DRAIN_MS),
      };
      const tenant = 'acme';
      const sample = await startSampleProcess(env);
      expect((await readiness(sample.baseUrl)).status).toBe(200);
      const load = new KeepAliveLoad({
        baseUrl: sample.baseUrl,
        tenant,
        clients: CLIENTS,
      });
      let exit: Exit | 'still running';
      let notReady: McpReply;
      let notReadyAt: number;
      try {
        // Every client on a connection of its own, accepted and answered.
        await until(() => load.answeredClients === CLIENTS, 60_000);
        sample.child.kill('SIGTERM');
        // What a load balancer does: it sees the instance not ready and
        // sends it no more work.
        do {
          notReady = await readiness(sample.baseUrl);
        } while (notReady.status === 200);
        notReadyAt = performance.now();
        // ... while the work it was sent meanwhile is still answered.
        await until(
          () => load.outcomes.some((o) => o.sentAt > notReadyAt),
          DRAIN_MS,
        );
      } finally {
        await load.stop();
      }
      try {
        exit = await Promise.race([
          sample.exited,
          new Promise<'still running'>((resolve) =>
            setTimeout(
              () => resolve('still running'),
              DRAIN_MS + GRACE_MS + 1_000,
            ),
          ),
        ]);
      } finally {
        if (
          sample.child.exitCode === null &&
          sample.child.signalCode === null
        ) {
          sample.child.kill('SIGKILL');
        }
      }
      const outcomes = load.outcomes;
      const acknowledged = outcomes.filter((o) => o.orderId !== undefined);
      const afterNotReady = acknowledged.filter((o) => o.sentAt > notReadyAt);
      const errors = outcomes.filter((o) => o.error !== undefined);
      console.log(
        `shutdown on ${database}: exit ${JSON.stringify(exit)}; ` +
          `${acknowledged.length} of ${outcomes.length} writes acknowledged ` +
          `(${afterNotReady.length} sent once /ready answered 503), ` +
          `${errors.length} connection errors`,
      );

      expect(notReady.status).toBe(503);
      expect(notReady.json()).toEqual({ status: 'leaving' });
      expect(exit, sample.output()).not.toBe('still running');
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(errors.map(describeOutcome)).toEqual([]);
      expect(
        outcomes.filter((o) => o.orderId === undefined).map(describeOutcome),
      ).toEqual([]);
      expect(afterNotReady.length).toBeGreaterThan(0);

      const stored = await storedIds(database, env, tenant);
      const lost = acknowledged.filter((o) => !stored.has(o.orderId as number));
      expect(lost.map(describeOutcome)).toEqual([]);
    },
    DRAIN_MS + GRACE_MS + 90_000,
  );
});

function describeOutcome(outcome: WriteOutcome): string {
  return `${outcome.kind} ${outcome.status ?? outcome.error} sent ${outcome.sentAt.toFixed(1)} done ${outcome.doneAt.toFixed(1)}`;
}
