import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { sendJsonText } from '../transports/http/http-problem.js';
import { serveRoutes } from '../transports/http/http-routes.js';
import { ConnectionDrain } from './connection-drain.js';
import { connectionTurn } from './connection-turn.js';
import type { LifecycleSettings } from './lifecycle-options.js';
import {
  callAfterBootstrap,
  callOnShutdown,
  installedNestCore,
} from './nest-lifecycle.adapter.js';
import {
  bootstrapFallbackMessage,
  shutdownFallbackMessage,
} from './nest-lifecycle.messages.js';
import type { McpServing } from './serving.port.js';

/** The injection token of the resolved lifecycle options. */
export const LIFECYCLE_SETTINGS = Symbol('LIFECYCLE_SETTINGS');

/** Readiness answers are never cached. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The app's HTTP server in and out of service: ready from the end of the
 * whole app's bootstrap, then, once the app begins closing, not ready for
 * the drain delay, its connections drained within the grace period (see
 * `ConnectionDrain`), and only then closed; each MCP request waits for its
 * turn on its connection. Where Nest offers no signal of the end of the
 * bootstrap or the start of shutdown, it says so at startup and keeps to
 * its own hooks.
 */
@Injectable()
export class ServerLifecycle
  implements
    McpServing,
    OnModuleInit,
    OnApplicationBootstrap,
    OnModuleDestroy,
    BeforeApplicationShutdown
{
  private readonly logger = new Logger('McpServerLifecycleModule');
  /** From the end of the whole app's bootstrap on. */
  private serving = false;
  /** Whether the end of the app's bootstrap is signalled (else this module's own hook stands in). */
  private awaitsApp = false;
  /** From the moment the drain is over. */
  private drained = false;
  /** The instance's leaving: the drain delay, then the drain. */
  private leaving?: Promise<void>;
  private drain?: ConnectionDrain;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly modules: ModulesContainer,
    @Inject(LIFECYCLE_SETTINGS) private readonly settings: LifecycleSettings,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) {
      // An application context (the command line): no server to look after.
      return;
    }
    this.followLifecycle();
    // Nest's application creates its adapter's HTTP server when it is
    // constructed, before any module initialises.
    this.drain = new ConnectionDrain(adapter.getHttpServer() as Server);
    const { readinessPath } = this.settings;
    if (readinessPath) {
      serveRoutes(
        adapter,
        [
          {
            method: 'GET',
            path: readinessPath,
            serve: (_req, res) => this.readiness(res),
          },
        ],
        this.logger,
      );
    }
  }

  onApplicationBootstrap(): void {
    this.serving ||= !this.awaitsApp;
  }

  // Where the start of shutdown is not signalled (Nest 11, see
  // `followLifecycle`); on Nest 12 `leave` has run before either.
  onModuleDestroy(): Promise<void> {
    return this.leave();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.leave();
  }

  isReady(): boolean {
    return this.serving && !this.drained;
  }

  turn(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    return connectionTurn(req, res);
  }

  /**
   * Not ready from now on; serves on for `shutdownDrainDelay`, then drains
   * the HTTP server's connections (within `shutdownGracePeriod`), and only
   * then refuses.
   */
  private leave(): Promise<void> {
    const { shutdownDrainDelay, shutdownGracePeriod } = this.settings;
    this.leaving ??= (
      this.drain?.leave(shutdownDrainDelay, shutdownGracePeriod) ??
      Promise.resolve()
    ).then(() => {
      this.drained = true;
    });
    return this.leaving;
  }

  /**
   * Arranges to hear of the end of the whole app's bootstrap and of the
   * start of its shutdown; warns, naming the installed Nest, of each one it
   * cannot, and keeps to its own hooks for it.
   */
  private followLifecycle(): void {
    const nest = installedNestCore();
    const bootstrap = callAfterBootstrap(this.modules, () => {
      this.serving = true;
    });
    this.awaitsApp = bootstrap === undefined;
    if (bootstrap !== undefined) {
      this.logger.warn(bootstrapFallbackMessage(nest, bootstrap));
    }
    const shutdown = callOnShutdown(
      this.modules,
      this.adapterHost,
      () => this.leave(),
      nest,
    );
    if (shutdown !== undefined) {
      this.logger.warn(shutdownFallbackMessage(nest, shutdown));
    }
  }

  /** `200` while serving and not leaving, else `503`. */
  private readiness(res: ServerResponse): void {
    if (this.isReady() && !this.leaving) {
      return sendJsonText(res, 200, '{"status":"ready"}', NO_STORE);
    }
    sendJsonText(
      res,
      503,
      this.serving ? '{"status":"leaving"}' : '{"status":"starting"}',
      { ...NO_STORE, 'Retry-After': '1' },
    );
  }
}
