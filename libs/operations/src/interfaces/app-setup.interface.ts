import type { INestApplication } from '@nestjs/common';

/**
 * What an application's `main.ts` applies to the app before it starts:
 * global guards, pipes, interceptors and filters (`app.useGlobalGuards()`
 * and the like), a global prefix. Nest keeps these on the application
 * object, not in any module, so a carrier that boots the app without
 * `main.ts` (the command line, stdio, a test) applies them only when it is
 * given the same function: `runCli(AppModule, { setup })` in
 * `@nestops/mcp`, `createTestApplication(moduleRef, setup)` in
 * `@nestops/operations/testing`.
 *
 * Keep it to what every carrier needs. Listening, `enableShutdownHooks()`
 * and middleware that only means something for HTTP requests stay in
 * `main.ts`: a command-line run closes the app itself when its command is
 * done.
 *
 * A promise it returns is awaited; its value is not used.
 *
 * ```ts
 * // src/app.setup.ts
 * export function setupApp(app: INestApplication): void {
 *   app.useGlobalGuards(new ApiKeyGuard());
 *   app.useGlobalPipes(new ValidationPipe({ whitelist: true }));
 * }
 * ```
 *
 * @publicApi
 */
export type AppSetup<A extends INestApplication = INestApplication> = (
  app: A,
) => unknown;
