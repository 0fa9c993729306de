import { ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { setupApp } from './app.setup';
import { ShutdownGate } from './shutdown/shutdown-gate';

async function bootstrap(): Promise<void> {
  const gate = new ShutdownGate();
  const app = setupApp(
    await NestFactory.create<NestExpressApplication>(AppModule),
    gate,
  );
  gate.closeOn(Object.values(ShutdownSignal));
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  console.log(
    `Order desk listening on http://${host}:${port} (MCP at POST /mcp)`,
  );
}

void bootstrap();
