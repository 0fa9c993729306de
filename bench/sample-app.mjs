// Boots the compiled sample (`npm run build`) in this process on a fresh
// SQLite file and 127.0.0.1 with an ephemeral port, for the benchmarks.
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** Resolves to `{ app, port }`. */
export async function startSample() {
  delete process.env.DATABASE_URL;
  process.env.SQLITE_PATH = join(
    mkdtempSync(join(tmpdir(), 'bench-')),
    'orders.sqlite',
  );
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require('../dist/src/app.module.js');
  const { setupApp } = require('../dist/src/app.setup.js');
  const app = setupApp(
    await NestFactory.create(AppModule, { logger: ['error'] }),
  );
  await app.listen(0, '127.0.0.1');
  return { app, port: app.getHttpServer().address().port };
}
