import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import {
  type AbstractHttpAdapter,
  HttpAdapterHost,
  ModulesContainer,
} from '@nestjs/core';
import type { Server, ServerResponse } from 'node:http';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver.js';
import { McpProtocol } from '../protocol/mcp-protocol.js';
import {
  callAfterBootstrap,
  callOnShutdown,
  installedNestCore,
} from '../internals/nest-core.adapter.js';
import {
  bootstrapFallbackMessage,
  shutdownFallbackMessage,
} from '../internals/nest-lifecycle.messages.js';
import { ConnectionDrain } from '../shutdown/connection-drain.js';
import type { McpOAuthSettings } from '../oauth/oauth-options.resolver.js';
import { ProtectedResource } from '../oauth/protected-resource.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { connectionTurn } from './connection-turn.js';
import { sendJson, sendJsonText, sendProblem } from './http-problem.js';
import { HttpJsonRpc } from './http-json-rpc.js';
import { isOriginAllowed } from './origin.policy.js';
import { McpAuthGuardRef, OuterAuthenticator } from './outer-authenticator.js';
import { PermissionGate } from './permission-gate.js';
import {
  BodyRequest,
  BodyTooLargeError,
  bodyMessage,
  bodyReader,
  isJsonRequest,
} from './request-body.reader.js';
import {
  type ExpressLike,
  HTTP_ADAPTER_TYPES,
  type HttpRoute,
  serveRoutes,
} from './http-routes.js';

/** The request as the app's routes see it: Express's, or Fastify's. */
type AppRequest = object & { user?: unknown };

/** Readiness answers are never cached. */
const NO_STORE = { 'Cache-Control': 'no-store' };

/** How long clients and caches may keep the protected resource metadata. */
const METADATA_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The Streamable HTTP transport: `POST <path>`, one JSON-RPC message (or,
 * under protocol version 2025-03-26, a batch) per request and one
 * `application/json` answer, or an SSE stream when the call sends messages
 * ahead of its answer and the POST accepts one; no sessions. A 2026-07-28 request
 * (by its body's `_meta`, or a 2026 `MCP-Protocol-Version`) must also carry
 * `MCP-Protocol-Version`, `Mcp-Method` and, on `tools/call`, `Mcp-Name`
 * headers that match its body. The route
 * sits behind the app's middleware but outside its controllers, so global
 * guards judge each tool call, not the envelope. It serves on Express and
 * on Fastify alike: the same handler, on the Node request and response.
 *
 * It serves from the end of the whole app's bootstrap until its shutdown
 * begins. Its own lifecycle hooks mark both where Nest offers no earlier
 * signal; where it does not (see `internals/nest-core.adapter.ts`), it
 * says so at startup.
 */
@Injectable()
export class McpHttpTransport
  implements
    OnModuleInit,
    OnApplicationBootstrap,
    OnModuleDestroy,
    BeforeApplicationShutdown
{
  private readonly logger = new Logger('McpModule');
  /** From the end of the whole app's bootstrap on. */
  private serving = false;
  /** Whether the end of the app's bootstrap is signalled (else McpModule's own stands in). */
  // Stryker disable next-line BooleanLiteral: set in onModuleInit before onApplicationBootstrap reads it; without an HTTP adapter nothing is served
  private awaitsApp = false;
  /** From the moment the app begins to shut down (after the drain). */
  private shuttingDown = false;
  /** The instance's leaving: the drain delay, then the drain. */
  private leaving?: Promise<void>;
  /** Set in `onModuleInit`, before the routes that use it. */
  private authenticator!: OuterAuthenticator;
  /** Ends the HTTP server's connections within the grace period on shutdown. */
  private drain?: ConnectionDrain;
  private readonly rpc: HttpJsonRpc;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authGuard: McpAuthGuardRef,
    protocol: McpProtocol,
    private readonly catalogue: McpToolCatalogue,
    private readonly modules: ModulesContainer,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly resource: ProtectedResource,
  ) {
    this.rpc = new HttpJsonRpc(
      protocol,
      settings.oauth &&
        new PermissionGate(
          catalogue,
          resource,
          settings.oauth,
          settings.toolListPerCaller,
        ),
    );
    // The body is read before the app's own body parser, which the app
    // registers when it initialises, so `maxBodySize` holds whatever that
    // parser's limit is.
    adapterHost.init$.subscribe(() =>
      this.express()?.post(
        settings.path,
        bodyReader(settings.maxBodySize, (res) => this.tooLarge(res)),
      ),
    );
  }

  async onModuleInit(): Promise<void> {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) {
      return;
    }
    const type = adapter.getType();
    if (!(HTTP_ADAPTER_TYPES as readonly string[]).includes(type)) {
      throw new Error(
        `McpModule's HTTP transport needs @nestjs/platform-express or @nestjs/platform-fastify; this app uses '${type}'.`,
      );
    }
    this.followLifecycle();
    // Nest's application creates its adapter's HTTP server when it is
    // constructed, before any module initialises.
    this.drain = new ConnectionDrain(adapter.getHttpServer() as Server);
    const { path, oauth, readinessPath } = this.settings;
    this.authenticator = new OuterAuthenticator(
      await this.authGuard.resolve(),
      this.settings.serverName,
      this.handle,
      oauth && this.resource.unauthorized(oauth, true),
    );
    const routes: HttpRoute[] = oauth ? this.metadataRoutes(oauth) : [];
    if (readinessPath) {
      routes.push({
        method: 'GET',
        path: readinessPath,
        serve: (_req, res) => this.readiness(res),
      });
    }
    routes.push(
      {
        method: 'POST',
        path,
        serve: (req, res, request, response) =>
          this.handle(req, res, request, response),
      },
      {
        method: 'OTHER',
        path,
        serve: (_req, res) => {
          res.setHeader('Allow', 'POST');
          sendProblem(
            res,
            405,
            'Method Not Allowed',
            `Only POST is served at ${path}.`,
          );
        },
      },
    );
    serveRoutes(adapter, routes, this.logger);
  }

  onApplicationBootstrap(): void {
    this.catalogue.prepare();
    this.serving ||= !this.awaitsApp;
  }

  // The two hooks below stand in where the start of shutdown is not
  // signalled (Nest 11: see `followLifecycle`); on Nest 12, `leave` has
  // run before either, and each returns its promise. The Nest 11 pass of
  // `.ci/run` runs them.
  // Stryker disable next-line BlockStatement: see above
  onModuleDestroy(): Promise<void> {
    return this.leave();
  }

  // Stryker disable next-line BlockStatement: see above
  beforeApplicationShutdown(): Promise<void> {
    return this.leave();
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
      this.shuttingDown = true;
    });
    return this.leaving;
  }

  /**
   * Arranges to hear of the end of the whole app's bootstrap and of the
   * start of its shutdown; warns, naming the installed Nest, of each one
   * it cannot, and keeps to its own hooks for it.
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
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: Nest 12 signals the start of shutdown; the Nest 11 pass of .ci/run sees the warning
    if (shutdown !== undefined) {
      this.logger.warn(shutdownFallbackMessage(nest, shutdown));
    }
  }

  /**
   * Serves one POST. `request` and `response` are the exchange as the
   * app's routes see it (on Express, `req` and `res` themselves): its
   * guards are given them, and each call's request shows `request`.
   */
  private async handle(
    req: BodyRequest,
    res: ServerResponse,
    request: AppRequest = req,
    response: object = res,
  ): Promise<void> {
    if (!(await connectionTurn(req, res))) return;
    if (!this.isReady()) {
      return sendProblem(
        res,
        503,
        'Service Unavailable',
        'The application is not ready.',
        // While the drain runs, each answer closes its connection (see
        // ConnectionDrain); once it is over, the server has none.
        { 'Retry-After': '1' },
      );
    }
    const origin = req.headers.origin;
    if (
      origin !== undefined &&
      !isOriginAllowed(origin, this.settings.allowedOrigins)
    ) {
      return sendProblem(
        res,
        403,
        'Forbidden',
        `Origin ${origin} is not allowed.`,
      );
    }
    if (!isJsonRequest(req)) {
      return sendProblem(
        res,
        415,
        'Unsupported Media Type',
        'Send the JSON-RPC message as application/json.',
      );
    }
    const { oauth, requireToken } = this.settings;
    if (req.headers.authorization === undefined) {
      if (oauth?.requireToken === 'always') {
        return sendProblem(
          res,
          401,
          'Unauthorized',
          'An access token is required.',
          { 'WWW-Authenticate': this.resource.unauthorized(oauth, false) },
        );
      }
      if (requireToken) {
        return sendProblem(
          res,
          401,
          'Unauthorized',
          'Credentials are required.',
          {
            'WWW-Authenticate': `${requireToken.scheme} realm="${this.settings.serverName}"`,
          },
        );
      }
    }
    if (!(await this.authenticator.admit(req, res, [request, response]))) {
      return;
    }
    let message: unknown;
    try {
      message = await bodyMessage(req, this.settings.maxBodySize);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return this.tooLarge(res);
      }
      if (error instanceof McpProtocolError) {
        return sendJson(res, 400, error.toResponse(null));
      }
      throw error;
    }
    await this.rpc.answer(req, message, res, request);
  }

  /**
   * The RFC 9728 metadata, without authentication, cacheable and open to
   * browser-based clients (CORS for any origin, with its preflight).
   */
  private metadataRoutes(oauth: McpOAuthSettings): HttpRoute[] {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    return this.resource.paths(oauth).flatMap((path): HttpRoute[] => [
      {
        method: 'GET',
        path,
        serve: (_req, res) =>
          sendJsonText(res, 200, this.resource.metadata(oauth), {
            ...cors,
            'Cache-Control': METADATA_CACHE_CONTROL,
          }),
      },
      {
        method: 'OPTIONS',
        path,
        serve: (req, res) => {
          res
            .writeHead(204, {
              ...cors,
              'Access-Control-Allow-Methods': 'GET, OPTIONS',
              'Access-Control-Allow-Headers':
                req.headers['access-control-request-headers'] ?? '*',
              'Access-Control-Max-Age': '86400',
            })
            .end();
        },
      },
    ]);
  }

  /** Serving from the end of the app's bootstrap until its shutdown begins. */
  private isReady(): boolean {
    return this.serving && !this.shuttingDown;
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

  private tooLarge(res: ServerResponse): void {
    sendProblem(
      res,
      413,
      'Content Too Large',
      `The body exceeds ${this.settings.maxBodySize} bytes.`,
      { Connection: 'close' },
    );
  }

  /**
   * The Express instance, once the app has its adapter (`init$`), or none:
   * an application context (the command line) sets a `null` adapter.
   */
  private express(): ExpressLike | undefined {
    const adapter = this.adapterHost.httpAdapter as AbstractHttpAdapter | null;
    return adapter?.getType() === 'express'
      ? adapter.getInstance<ExpressLike>()
      : undefined;
  }
}
