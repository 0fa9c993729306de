import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';

/**
 * The HTTP server: the setup every carrier shares, and what only a server
 * needs: the shutdown hooks. On a shutdown signal McpModule takes the
 * server out of service (`GET /ready` answers `503` for
 * `SHUTDOWN_DRAIN_DELAY` ms while the app serves on, then no new
 * connections, every request still sent on an open one answered with
 * `Connection: close`); then the app closes and the process exits 0.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule);
  setupApp(app);
  app.enableShutdownHooks([], { useProcessExit: true });
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  console.log(
    `Order desk listening on http://${host}:${port} (MCP at POST /mcp)`,
  );
}

void bootstrap();
