import type {
  DynamicModule,
  LoggerService,
  LogLevel,
  Type,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type {
  ExpressAdapter,
  NestExpressApplication,
} from '@nestjs/platform-express';
import type {
  FastifyAdapter,
  NestFastifyApplication,
} from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** The HTTP adapters McpModule serves on: the HTTP suites run on each. */
export const HTTP_ADAPTERS = ['express', 'fastify'] as const;
export type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];

/** A Nest app on either adapter. */
export type NestHttpApplication =
  NestExpressApplication | NestFastifyApplication;

/** A Nest app listening on 127.0.0.1 with an ephemeral port. */
export interface RunningApp<
  A extends NestHttpApplication = NestHttpApplication,
> {
  readonly app: A;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  close(): Promise<void>;
}

export interface CreateOptions {
  /** Nest's logger: levels, a logger of the test's own, or none (`false`, the default). */
  readonly logger?: LoggerService | LogLevel[] | false;
  /** An Express adapter of the test's own, e.g. with middleware in front of Nest. */
  readonly adapter?: ExpressAdapter;
  /** The HTTP adapter: `express` (the default) or `fastify`. */
  readonly on?: HttpAdapterName;
  /** With `on: 'fastify'`: the options given to `FastifyAdapter`. */
  readonly fastify?: ConstructorParameters<typeof FastifyAdapter>[0];
}

export interface StartOptions<
  A extends NestHttpApplication = NestExpressApplication,
> extends CreateOptions {
  /** What the app's `main.ts` does between creating and listening (global pipes, body parser...). */
  setup?(app: A): unknown;
  /**
   * `false`: the HTTP server listens before Nest's `init()`, which the test
   * then runs itself (to see the app while it is still starting). Express
   * only: Fastify routes nothing before its own start, in `listen()`.
   */
  readonly init?: boolean;
  /** The port to listen on; default: an ephemeral one. */
  readonly port?: number;
}

/**
 * Creates the Nest app of `module`, not initialised; a failure rejects
 * (`abortOnError: false`), it never exits the process.
 */
export function createApp(
  module: Type | DynamicModule,
  options?: CreateOptions & { on?: 'express' },
): Promise<NestExpressApplication>;
export function createApp(
  module: Type | DynamicModule,
  options: CreateOptions,
): Promise<NestHttpApplication>;
export async function createApp(
  module: Type | DynamicModule,
  options: CreateOptions = {},
): Promise<NestHttpApplication> {
  const config = { logger: options.logger ?? false, abortOnError: false };
  if (options.on === 'fastify') {
    const { FastifyAdapter } = await import('@nestjs/platform-fastify');
    return NestFactory.create<NestFastifyApplication>(
      module,
      new FastifyAdapter(options.fastify),
      config,
    );
  }
  return options.adapter
    ? NestFactory.create<NestExpressApplication>(
        module,
        options.adapter,
        config,
      )
    : NestFactory.create<NestExpressApplication>(module, config);
}

/**
 * Creates the Nest app of `module` (`createApp`), applies `setup`, and
 * listens on 127.0.0.1 with an ephemeral port.
 */
export function startApp(
  module: Type | DynamicModule,
  options?: StartOptions & { on?: 'express' },
): Promise<RunningApp<NestExpressApplication>>;
export function startApp(
  module: Type | DynamicModule,
  options: StartOptions<NestHttpApplication>,
): Promise<RunningApp<NestHttpApplication>>;
export async function startApp(
  module: Type | DynamicModule,
  options: StartOptions<NestHttpApplication> = {},
): Promise<RunningApp<NestHttpApplication>> {
  if (options.init === false && options.on === 'fastify') {
    throw new Error('init: false is for Express only');
  }
  const app = await createApp(module, options);
  try {
    await options.setup?.(app);
    if (options.init === false) {
      await new Promise<void>((listening) =>
        app.getHttpServer().listen(0, '127.0.0.1', listening),
      );
    } else {
      await app.listen(options.port ?? 0, '127.0.0.1');
    }
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => app.close(),
  };
}

/**
 * Starts an app with `start` before the tests of the enclosing `describe`
 * (or file) and closes it after them; the getter returns it while it runs.
 */
export function useApp<T extends RunningApp<NestHttpApplication>>(
  start: () => Promise<T>,
): () => T {
  let running: T | undefined;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(() => running?.close());
  return () => {
    if (!running) {
      throw new Error(
        'The app is not running: useApp() starts it in beforeAll.',
      );
    }
    return running;
  };
}
