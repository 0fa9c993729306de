import { Test, type TestingModule } from '@nestjs/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';
import { dropSchema, newSchema } from './pg-schema';
import {
  type HttpAdapterName,
  type NestHttpApplication,
  startApp,
  useApp,
  type RunningApp,
} from './start-app';

/** The sample app, listening, on a database of its own. */
export interface RunningSample<
  A extends NestHttpApplication = NestHttpApplication,
> extends RunningApp<A> {
  readonly dataSource: DataSource;
  /** Deletes every order, so that the next test starts from an empty table. */
  clearOrders(): Promise<void>;
}

/**
 * Boots the sample application as `npm start` does (on Express, or on
 * `extra.on`), on a fresh SQLite file, or, when `database` is 'postgres'
 * (DATABASE_URL set), in a new schema of the PostgreSQL database, dropped
 * on close.
 */
export async function startSampleApp(
  database: 'sqlite' | 'postgres' = 'sqlite',
  extra: {
    env?: Record<string, string>;
    port?: number;
    on?: HttpAdapterName;
  } = {},
): Promise<RunningSample> {
  const env = await sampleEnv(database);
  const saved = swapEnv({ ...env.vars, ...extra.env });
  let running: RunningApp<NestHttpApplication>;
  try {
    running = await startApp(AppModule, {
      logger: ['error', 'warn'],
      setup: setupApp,
      port: extra.port,
      on: extra.on,
    });
  } catch (error) {
    await env.dispose();
    throw error;
  } finally {
    swapEnv(saved);
  }
  const dataSource = running.app.get(DataSource);
  return {
    ...running,
    dataSource,
    clearOrders: async () => {
      await dataSource.query('DELETE FROM orders');
    },
    close: async () => {
      try {
        await running.close();
      } finally {
        await env.dispose();
      }
    },
  };
}

/**
 * The sample app (`startSampleApp`), started before the tests of the
 * enclosing `describe` and closed after them: the getter returns it.
 */
export function useSampleApp(
  database: 'sqlite' | 'postgres' = 'sqlite',
  on?: HttpAdapterName,
): () => RunningSample {
  return useApp(() => startSampleApp(database, { on }));
}

export type EnvVars = Record<
  'DATABASE_URL' | 'DATABASE_SCHEMA' | 'SQLITE_PATH',
  string | undefined
>;

/** The environment of a sample on a database of its own, and how to drop it. */
export async function sampleEnv(
  database: 'sqlite' | 'postgres',
): Promise<{ vars: EnvVars; dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (database === 'postgres') {
    if (!url) {
      throw new Error('PostgreSQL needs DATABASE_URL.');
    }
    const schema = await newSchema(url);
    return {
      vars: {
        DATABASE_URL: url,
        DATABASE_SCHEMA: schema,
        SQLITE_PATH: undefined,
      },
      dispose: () => dropSchema(url, schema),
    };
  }
  return {
    vars: {
      DATABASE_URL: undefined,
      DATABASE_SCHEMA: undefined,
      SQLITE_PATH: join(
        mkdtempSync(join(tmpdir(), 'orders-')),
        'orders.sqlite',
      ),
    },
    dispose: async () => undefined,
  };
}

/** Sets the variables (unset when undefined); returns what they were. */
function swapEnv<V extends Record<string, string | undefined>>(vars: V): V {
  const saved = {} as Record<string, string | undefined>;
  for (const name of Object.keys(vars)) {
    saved[name] = process.env[name];
    restoreEnv(name, vars[name]);
  }
  return saved as V;
}

/** Sets an environment variable back to a saved value (unset when undefined). */
export function restoreEnv(
  name: string,
  value: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (value === undefined) {
    delete env[name];
  } else {
    env[name] = value;
  }
}

/** A copy of `process.env` with `vars` set (unset where undefined). */
export function envWith(vars: EnvVars): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(vars)) {
    restoreEnv(name, value, env);
  }
  return env;
}

/** The sample app as an initialised TestingModule on a fresh SQLite file: no HTTP. */
export async function sampleTestingModule(): Promise<TestingModule> {
  const saved = swapEnv((await sampleEnv('sqlite')).vars);
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
    }).compile();
    moduleRef.useLogger(false);
    return await moduleRef.init();
  } finally {
    swapEnv(saved);
  }
}
