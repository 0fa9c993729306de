import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * PostgreSQL when `DATABASE_URL` is set, otherwise SQLite in the file
 * `SQLITE_PATH` (default `var/orders.sqlite`).
 */
export function databaseOptions(
  env: NodeJS.ProcessEnv = process.env,
): TypeOrmModuleOptions {
  const common = { autoLoadEntities: true, synchronize: true } as const;
  if (env.DATABASE_URL) {
    return { ...common, type: 'postgres', url: env.DATABASE_URL };
  }
  const file = resolve(env.SQLITE_PATH ?? 'var/orders.sqlite');
  mkdirSync(dirname(file), { recursive: true });
  return { ...common, type: 'better-sqlite3', database: file };
}
