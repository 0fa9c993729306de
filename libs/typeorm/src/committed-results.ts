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
 * The committed results of one TypeORM data source, in a table of its own,
 * on SQLite and PostgreSQL alike: made when missing (and results older than
 * a week dropped) before the first task is looked up, not at startup, so
 * that an app starts, and its command line runs, while another connection
 * holds the database.
 */
export class TypeOrmCommittedResults implements CommittedResults {
  private made?: Promise<void>;

  constructor(private readonly dataSource: DataSource) {}

  find(key: string): Promise<string | undefined> {
    return this.between(async () => {
      await this.make();
      const row = await this.dataSource
        .createQueryBuilder()
        .select('r.result', 'result')
        .from(COMMITTED_RESULTS_TABLE, 'r')
        .where('r.outcome_key = :key', { key })
        .getRawOne<{ result: string }>();
      return row?.result;
    });
  }

  /** The table, made once per process; tried again after a failure. */
  private make(): Promise<void> {
    // Two instances making it at once on PostgreSQL: one fails on the
    // catalogue's key, and finds it made when it tries again.
    this.made ??= this.makeTable()
      .catch(() => this.makeTable())
      .catch((error: unknown) => {
        this.made = undefined;
        throw error;
      });
    return this.made;
  }

  private async makeTable(): Promise<void> {
    await this.dataSource.query(
      `CREATE TABLE IF NOT EXISTS ${COMMITTED_RESULTS_TABLE} (outcome_key VARCHAR(200) NOT NULL PRIMARY KEY, result TEXT NOT NULL, committed_at BIGINT NOT NULL)`,
    );
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(COMMITTED_RESULTS_TABLE)
      .where('committed_at < :before', { before: Date.now() - KEEP_MS })
      .execute();
  }

  /** `work`; on a single connection (SQLite), between calls, never inside one's transaction. */
  private between<T>(work: () => Promise<T>): Promise<T> {
    const queue = callQueueOf(this.dataSource);
    return queue ? queue.run(work) : work();
  }
}
