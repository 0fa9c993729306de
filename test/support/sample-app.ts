import { NestFactory } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { setupApp } from '../../src/app.setup';

export interface RunningApp {
  readonly app: NestExpressApplication;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with an ephemeral port. */
export async function listen(app: NestExpressApplication): Promise<RunningApp> {
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () => app.close(),
  };
}

/**
 * Boots the sample application as `npm start` does, on a fresh SQLite file
 * (or on PostgreSQL when `database` is 'postgres' and DATABASE_URL is set).
 */
export async function startSampleApp(
  database: 'sqlite' | 'postgres' = 'sqlite',
): Promise<RunningApp> {
  const saved = {
    url: process.env.DATABASE_URL,
    sqlite: process.env.SQLITE_PATH,
  };
  if (database === 'sqlite') {
    delete process.env.DATABASE_URL;
    process.env.SQLITE_PATH = join(
      mkdtempSync(join(tmpdir(), 'orders-')),
      'orders.sqlite',
    );
  }
  try {
    const app = setupApp(
      await NestFactory.create<NestExpressApplication>(AppModule, {
        logger: ['error', 'warn'],
      }),
    );
    return await listen(app);
  } finally {
    restoreEnv('DATABASE_URL', saved.url);
    restoreEnv('SQLITE_PATH', saved.sqlite);
  }
}

/** Sets an environment variable back to a saved value (unset when undefined). */
export function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) {
    delete process.env[name];
  } else {
    process.env[name] = value;
  }
}

/** The sample app as an initialised TestingModule on a fresh SQLite file: no HTTP. */
export async function sampleTestingModule(): Promise<TestingModule> {
  const saved = {
    url: process.env.DATABASE_URL,
    sqlite: process.env.SQLITE_PATH,
  };
  delete process.env.DATABASE_URL;
  process.env.SQLITE_PATH = join(
    mkdtempSync(join(tmpdir(), 'orders-')),
    'orders.sqlite',
  );
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule],
    }).compile();
    moduleRef.useLogger(false);
    return await moduleRef.init();
  } finally {
    restoreEnv('DATABASE_URL', saved.url);
    restoreEnv('SQLITE_PATH', saved.sqlite);
  }
}
