import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { sendJsonText } from '../transports/http/http-problem.js';
import { serveRoutes } from '../transports/http/http-routes.js';
import { ConnectionDrain } from './connection-drain.js';
import { connectionTurn } from './connection-turn.js';
import type { LifecycleSettings } from './lifecycle-options.js';
import { callOnListen, installedNestCore } from './nest-lifecycle.check.js';
import { listenFallbackMessage } from './nest-lifecycle.messages.js';
import type { McpServing } from './serving.port.js';

/** The injection token of the resolved lifecycle options. */
export const LIFECYCLE_SETTINGS = Symbol('LIFECYCLE_SETTINGS');

/** Readiness answers are never cached. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The app's HTTP server in and out of service: ready once the app has
 * bootstrapped (`serve`), then, once the app begins closing (`leave`), not
 * ready for the drain delay, its connections drained within the grace
 * period (see `ConnectionDrain`), and only then refusing; each MCP request
 * waits for its turn on its connection. `LifecycleHooks` calls `serve` and
 * `leave` from Nest's hooks (see mcp-server-lifecycle.module.ts).
 */
@Injectable()
export class ServerLifecycle implements McpServing, OnModuleInit {
  private readonly logger = new Logger('McpServerLifecycleModule');
  /** From the end of the app's bootstrap on. */
  private serving = false;
  /** From the moment the drain is over. */
  private drained = false;
  /** The instance's leaving: the drain delay, then the drain. */
  private leaving?: Promise<void>;
  private drain?: ConnectionDrain;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(LIFECYCLE_SETTINGS) private readonly settings: LifecycleSettings,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) {
      // An application context (the command line): no server to look after.
      return;
    }
    const missing = callOnListen(this.adapterHost, () => this.serve());
    if (missing !== undefined) {
      this.logger.warn(listenFallbackMessage(installedNestCore(), missing));
    }
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

  /** Ready from now on (until `leave`): the app has bootstrapped. */
  serve(): void {
    this.serving = true;
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
  leave(): Promise<void> {
    const { shutdownDrainDelay, shutdownGracePeriod } = this.settings;
    this.leaving ??= (
      this.drain?.leave(shutdownDrainDelay, shutdownGracePeriod) ??
      Promise.resolve()
    ).then(() => {
      this.drained = true;
    });
    return this.leaving;
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
