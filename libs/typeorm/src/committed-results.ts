import type { CommittedResults } from '@nestops/operations/internal';
import type { DataSource, EntityManager } from 'typeorm';
import { callQueueOf } from './call-queue.js';

/** The table of results committed under a key (a task's id). */
export const COMMITTED_RESULTS_TABLE = 'nestops_committed_results';

/** How long a committed result is kept: longer than any task's time to live. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records `json` as the result committed under `key`, with `manager` (the
 * call's transaction): it commits with the call's writes or not at all. A
 * second run of the same key fails on the table's primary key, so its
 * writes roll back.
 */
export async function recordCommitted(
  manager: EntityManager,
  key: string,
  json: string,
): Promise<void> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(COMMITTED_RESULTS_TABLE, ['outcome_key', 'result', 'committed_at'])
    .values({ outcome_key: key, result: json, committed_at: Date.now() })
    .execute();
}

/**
 * The committed results of one TypeORM data source, in a table of its own
 * (made at the startup of an app that runs tasks, when missing, on SQLite
 * and PostgreSQL alike; results older than a week dropped then, if any).
 */
export class TypeOrmCommittedResults implements CommittedResults {
  constructor(private readonly dataSource: DataSource) {}

  prepare(): Promise<void> {
    return this.between(async () => {
      await this.dataSource.query(
        `CREATE TABLE IF NOT EXISTS ${COMMITTED_RESULTS_TABLE} (outcome_key VARCHAR(200) NOT NULL PRIMARY KEY, result TEXT NOT NULL, committed_at BIGINT NOT NULL)`,
      );
      const before = Date.now() - KEEP_MS;
      // Read first: a DELETE takes SQLite's write lock even when it matches nothing.
      const stale = await this.dataSource
        .createQueryBuilder()
        .select('r.outcome_key', 'key')
        .from(COMMITTED_RESULTS_TABLE, 'r')
        .where('r.committed_at < :before', { before })
        .limit(1)
        .getRawOne<{ key: string }>();
      if (stale) {
        await this.dataSource
          .createQueryBuilder()
          .delete()
          .from(COMMITTED_RESULTS_TABLE)
          .where('committed_at < :before', { before })
          .execute();
      }
    });
  }

  find(key: string): Promise<string | undefined> {
    const read = async () => {
      const row = await this.dataSource
        .createQueryBuilder()
        .select('r.result', 'result')
        .from(COMMITTED_RESULTS_TABLE, 'r')
        .where('r.outcome_key = :key', { key })
        .getRawOne<{ result: string }>();
      return row?.result;
    };
    return this.between(read);
  }

  /** `work`; on a single connection (SQLite), between calls, never inside one's transaction. */
  private between<T>(work: () => Promise<T>): Promise<T> {
    const queue = callQueueOf(this.dataSource);
    return queue ? queue.run(work) : work();
  }
}
