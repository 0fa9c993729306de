import type { INestApplication } from '@nestjs/common';
import type { AppSetup } from '../interfaces/app-setup.interface.js';

/**
 * The application of a compiled `TestingModule`, with `setup` applied and
 * then initialised (not listening), as `main.ts` and `runCli` boot it: the
 * global guards, pipes, interceptors and filters that `setup` sets judge
 * the calls of `OperationTestClient` and `McpTestClient` as they judge HTTP
 * requests. Those clients take an initialised application, and Nest builds
 * a call's pipeline when the application initialises, so the setup cannot
 * come later. Close the application after the tests. `moduleRef`: what
 * it needs of a compiled `TestingModule`, its `createNestApplication()`
 * (the application, not yet initialised).
 *
 * ```ts
 * const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
 * const app = await createTestApplication(moduleRef, setupApp);
 * const alice = OperationTestClient.create(app, { headers: { Authorization: 'Bearer alice-token' } });
 * // ...
 * await app.close();
 * ```
 *
 * @publicApi
 */
export async function createTestApplication<
  A extends INestApplication = INestApplication,
>(
  moduleRef: { createNestApplication(): INestApplication },
  setup?: AppSetup<A>,
): Promise<A> {
  if (setup !== undefined && typeof setup !== 'function') {
    throw new TypeError(
      `createTestApplication's setup must be the function main.ts applies to the app, not ${typeof setup}`,
    );
  }
  const app = moduleRef.createNestApplication() as A;
  try {
    await setup?.(app);
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}
