import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

/** The part of `pg`'s client the tests use (pg ships no types). */
export interface PgClient {
  connect(): Promise<void>;
  query<Row = Record<string, unknown>>(
    sql: string,
    values?: unknown[],
  ): Promise<{ rows: Row[]; rowCount: number | null }>;
  end(): Promise<void>;
}

const { Client } = createRequire(__filename)('pg') as {
  Client: new (options: {
    connectionString: string;
    options?: string;
  }) => PgClient;
};

/**
 * A new, empty schema in the PostgreSQL database at `url`, named so that
 * no other test file or run picks the same: each gets its own tables.
 */
export async function newSchema(url: string): Promise<string> {
  const schema = `t_${randomBytes(8).toString('hex')}`;
  await withClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return schema;
}

/** Drops a schema made by `newSchema()` with everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await withClient(url, (client) =>
    client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  );
}

/** Runs `work` with a client of `url` whose search path is `schema`. */
export async function withClient<T>(
  url: string,
  work: (client: PgClient) => Promise<T>,
  schema?: string,
): Promise<T> {
  const client = new Client({
    connectionString: url,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
