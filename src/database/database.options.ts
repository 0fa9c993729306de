import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { appRoot } from '../app-root';
import { MIGRATIONS } from './migrations';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL when `DATABASE_URL` is set (in the schema `DATABASE_SCHEMA`,
 * default `public`, which must exist), otherwise SQLite in the file
 * `SQLITE_PATH` (default `var/orders.sqlite` of the repository), where a
 * statement waits up to `SQLITE_BUSY_TIMEOUT_MS` (default 5,000) for a
 * database another process holds. The schema
 * comes from the migrations, run at startup; `synchronize` is off.
 */
export function databaseOptions(
  env: NodeJS.ProcessEnv = process.env,
): TypeOrmModuleOptions {
  const common = {
    autoLoadEntities: true,
    synchronize: false,
    migrations: MIGRATIONS,
    migrationsRun: true,
  } as const;
  if (env.DATABASE_URL) {
    const schema = env.DATABASE_SCHEMA || 'public';
    if (!SCHEMA_NAME.test(schema)) {
      throw new Error(
        `DATABASE_SCHEMA must be a lower-case SQL identifier, not '${schema}'.`,
      );
    }
    return {
      ...common,
      type: 'postgres',
      url: env.DATABASE_URL,
      schema,
      // The migrations' SQL names no schema: the connection's search path does.
      extra: { options: `-c search_path=${schema}` },
    };
  }
  // Beside the app, not the working directory: an MCP client starts the
  // command line from wherever it likes.
  const file = resolve(env.SQLITE_PATH ?? join(appRoot(), 'var/orders.sqlite'));
  mkdirSync(dirname(file), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: file,
    driver: sqliteDriver(),
    // Write-ahead logging: readers (a command line on the same file, the
    // start's migration check) go on while another connection writes.
    enableWAL: true,
    // How long a statement waits while another process holds the database
    // (`UnitOfWorkModule` waits without holding the event loop, then fails
    // the call with INTERNAL_UNAVAILABLE_002); better-sqlite3's 5 s unless
    // SQLITE_BUSY_TIMEOUT_MS says otherwise.
    timeout: busyTimeout(env.SQLITE_BUSY_TIMEOUT_MS),
  };
}

/** SQLITE_BUSY_TIMEOUT_MS, a whole number of milliseconds; 5,000 when unset. */
function busyTimeout(value: string | undefined): number {
  if (value === undefined || value === '') {
    return 5000;
  }
  if (!/^\d{1,9}$/.test(value)) {
    throw new Error(
      `SQLITE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, not '${value}'.`,
    );
  }
  return Number(value);
}

/**
 * better-sqlite3 13 (built on Node-API) on Node 22 and newer; 12 on Node 20,
 * where 13 does not run. 12 derives from Node's own `ObjectWrap`, whose
 * cleanup hook aborts the process when a statement is garbage collected
 * outside a JavaScript context on Node 24.19 and newer.
 */
export function sqliteDriver(): unknown {
  const load = createRequire(__filename);
  return Number(process.versions.node.split('.')[0]) >= 22
    ? load('better-sqlite3-napi')
    : load('better-sqlite3');
}
