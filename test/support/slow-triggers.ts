import type { PgClient } from './pg-schema';

/**
 * Two PostgreSQL triggers on `table` that make a write outlast a deadline:
 * a row named `slow commit…` makes its COMMIT sleep 2.5 s (a deferred
 * constraint trigger), one named `slow insert…` makes its INSERT sleep 2.5 s
 * before the write.
 */
export async function createSlowTriggers(
  client: Pick<PgClient, 'query'>,
  table: string,
): Promise<void> {
  await client.query(`
    CREATE FUNCTION slow_trigger() RETURNS trigger AS $$
    BEGIN PERFORM pg_sleep(2.5); RETURN NEW; END $$ LANGUAGE plpgsql`);
  await client.query(`
    CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON ${table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (NEW.name LIKE 'slow commit%') EXECUTE FUNCTION slow_trigger()`);
  await client.query(`
    CREATE TRIGGER slow_insert BEFORE INSERT ON ${table} FOR EACH ROW
    WHEN (NEW.name LIKE 'slow insert%') EXECUTE FUNCTION slow_trigger()`);
}
