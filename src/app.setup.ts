import { ValidationPipe } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ShutdownGate } from './shutdown/shutdown-gate';

/**
 * What `main.ts` applies to the app; the end-to-end tests apply the same.
 * Requests are refused once `gate` closes (`main.ts` closes it on the
 * shutdown signals); on a signal the process exits 0 once closed.
 */
export function setupApp(
  app: NestExpressApplication,
  gate: ShutdownGate = new ShutdownGate(),
): NestExpressApplication {
  app.use(gate.middleware);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
    }),
  );
  app.enableShutdownHooks([], { useProcessExit: true });
  return app;
}
