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
 * In a `describe` of one database: true when it runs; otherwise registers
 * a visibly skipped test saying why, and returns false.
 */
export function skipUnlessEnabled(db: DatabaseCase): boolean {
  if (!db.enabled) {
    it.skip('needs DATABASE_URL (PostgreSQL)', () => undefined);
  }
  return db.enabled;
}
