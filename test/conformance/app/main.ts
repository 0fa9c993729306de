import { NestFactory } from '@nestjs/core';
import { ConformanceModule } from './conformance.module';

/**
 * Serves the conformance fixture on 127.0.0.1, on `PORT` (default: a free
 * port), and prints the endpoint's URL on stdout once it listens.
 */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(ConformanceModule, {
    logger: ['error', 'warn', 'log'],
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  console.log(`conformance fixture listening on ${await app.getUrl()}/mcp`);
}

void bootstrap();
