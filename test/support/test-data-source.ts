import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../../src/database/database.options';

/**
 * The TypeORM options of a database test's app: PostgreSQL at
 * DATABASE_URL in `schema` (made by `newSchema`), or a new SQLite file in a
 * temporary directory; `entities` synchronised.
 */
export function testDataSource(
  database: 'sqlite' | 'postgres',
  entities: Function[],
  schema?: string,
): TypeOrmModuleOptions {
  return database === 'postgres'
    ? {
        type: 'postgres',
        url: process.env.DATABASE_URL,
        schema,
        extra: { options: `-c search_path=${schema}` },
        entities,
        synchronize: true,
      }
    : {
        type: 'better-sqlite3',
        database: join(mkdtempSync(join(tmpdir(), 'nestops-db-')), 'db.sqlite'),
        driver: sqliteDriver(),
        entities,
        synchronize: true,
      };
}
