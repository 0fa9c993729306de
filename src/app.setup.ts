import { type INestApplication, ValidationPipe } from '@nestjs/common';

/**
 * What every carrier of the app applies: `main.ts` before it listens, the
 * command line (`runCli`'s `setup`, `src/cli.ts`) and the end-to-end tests.
 * What only the HTTP server needs (the shutdown hooks)
 * is in `main.ts`: a command-line run has no HTTP server to take out of service, and
 * closes the app itself once its command is done.
 */
export function setupApp<A extends INestApplication>(app: A): A {
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
    }),
  );
  return app;
}
