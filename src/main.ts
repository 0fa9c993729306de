import { ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { ShutdownGate } from './shutdown/shutdown-gate';

/**
 * The HTTP server: the setup every carrier shares, and what only a server
 * needs: requests are refused once a shutdown signal arrives (the gate, in
 * front of every route), and the process exits 0 once the app is closed.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule);
  const gate = new ShutdownGate();
  app.use(gate.middleware);
  setupApp(app);
  app.enableShutdownHooks([], { useProcessExit: true });
  gate.closeOn(Object.values(ShutdownSignal));
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  console.log(
    `Order desk listening on http://${host}:${port} (MCP at POST /mcp)`,
  );
}

void bootstrap();
