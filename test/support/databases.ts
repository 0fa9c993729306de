/**
 * The databases the database tests run on: SQLite always, PostgreSQL when
 * DATABASE_URL is set. Use with `describe.each(DATABASES)` and
 * `skipUnlessEnabled()`.
 */
export const DATABASES = [
  { name: 'SQLite', database: 'sqlite', enabled: true },
  {
    name: 'PostgreSQL',
    database: 'postgres',
    enabled: Boolean(process.env.DATABASE_URL),
  },
] as const;

export type DatabaseCase = (typeof DATABASES)[number];

/**
 * The name of the test a database that does not run leaves in its place;
 * the run ends with a line naming them (skipped-databases.reporter.ts).
 */
export const NEEDS_DATABASE_URL = 'needs DATABASE_URL (PostgreSQL)';

/**
 * In a `describe` of one database: true when it runs; otherwise registers
 * a visibly skipped test saying why, and returns false.
 */
export function skipUnlessEnabled(db: DatabaseCase): boolean {
  if (!db.enabled) {
    it.skip(NEEDS_DATABASE_URL, () => undefined);
  }
  return db.enabled;
}
