import type {
  DynamicModule,
  INestApplication,
  INestApplicationContext,
  LogLevel,
  Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppSetup } from '@nestops/operations';

export type RootModule = Type<unknown> | DynamicModule;

/** Nest's log levels during a command; everything else is noise on stderr. */
const LOG_LEVELS: LogLevel[] = ['error', 'warn'];

/** How the command line boots the app. */
export interface CliBoot<A extends INestApplication> {
  readonly setup?: AppSetup<A>;
}

/**
 * The app of one command. Without `setup`, an application context (no HTTP
 * platform needed). With it, the application `main.ts` creates, with
 * `setup` applied and then initialised but never listening: Nest keeps
 * `useGlobalGuards()`, pipes, interceptors and filters on the application
 * object (its `ApplicationConfig`), and builds each handler's pipeline when
 * the application initialises, so they must be set on a real application
 * before `init()`. An application context has no `useGlobal*` methods, and
 * setting them on its config from outside would lean on Nest internals.
 */
export async function createCliApplication<A extends INestApplication>(
  rootModule: RootModule,
  boot: CliBoot<A>,
): Promise<INestApplicationContext> {
  if (boot.setup !== undefined && typeof boot.setup !== 'function') {
    throw new TypeError(
      `runCli's setup must be the function main.ts applies to the app, not ${typeof boot.setup}`,
    );
  }
  const options = { logger: LOG_LEVELS, abortOnError: false };
  if (!boot.setup) {
    return NestFactory.createApplicationContext(rootModule, options);
  }
  const app = await NestFactory.create<A>(
    rootModule,
    await expressAdapter(),
    options,
  );
  try {
    await boot.setup(app);
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

/**
 * Express, as `NestFactory.create()` picks by default, loaded here so that a
 * missing package is a clear start failure rather than Nest's own
 * `process.exit(1)`.
 */
async function expressAdapter() {
  try {
    const platform = await import('@nestjs/platform-express');
    // Nest 11's package is CommonJS: its exports may sit on `default`.
    const { ExpressAdapter } =
      'ExpressAdapter' in platform
        ? platform
        : (platform as { default: typeof platform }).default;
    return new ExpressAdapter();
  } catch (error) {
    throw new Error(
      `runCli's setup option boots the app as main.ts does, on @nestjs/platform-express, which did not load (${error instanceof Error ? error.message : String(error)}); install it, or leave setup out`,
      { cause: error },
    );
  }
}
