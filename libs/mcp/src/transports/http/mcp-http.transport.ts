import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { type AbstractHttpAdapter, HttpAdapterHost } from '@nestjs/core';
import type { Server, ServerResponse } from 'node:http';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../../options/mcp-settings.js';
import { McpProtocol } from '../../protocol/mcp-protocol.js';
import { MCP_SERVING, type McpServing } from '../../lifecycle/serving.port.js';
import { ProtectedResource } from '../../auth/protected-resource.js';
import { McpToolCatalogue } from '../../tools/mcp-tool.catalogue.js';
import { sendJson, sendProblem } from './http-problem.js';
import { answerExpectContinue } from './expect-continue.js';
import { HttpJsonRpc } from './http-json-rpc.js';
import { HttpResume } from './http-resume.js';
import { HttpAdmission } from './http-admission.js';
import { Resumption } from '../../resumption/resumption.js';
import { metadataRoutes } from './metadata-routes.js';
import {
  McpAuthGuardRef,
  OuterAuthenticator,
} from '../../auth/outer-authenticator.js';
import { gatedTargets } from '../../auth/gated-targets.js';
import { McpPromptCatalogue } from '../../prompts/mcp-prompt.catalogue.js';
import { McpResourceCatalogue } from '../../resources/mcp-resource.catalogue.js';
import { PermissionGate } from '../../auth/permission-gate.js';
import {
  BodyRequest,
  BodyTooLargeError,
  bodyMessage,
  bodyReader,
  declaresTooLarge,
  answerTooLarge,
} from './request-body.reader.js';
import {
  type ExpressLike,
  exactly,
  HTTP_ADAPTER_TYPES,
  type HttpRoute,
  serveRoutes,
  targetPath,
} from './http-routes.js';

/** The request as the app's routes see it: Express's, or Fastify's. */
type AppRequest = object & { user?: unknown };

/**
 * The Streamable HTTP transport: `POST <path>`, one JSON-RPC message (or,
 * under protocol version 2025-03-26, a batch) per request and one
 * `application/json` answer, or an SSE stream when the call sends messages
 * ahead of its answer and the POST accepts one; no sessions. A 2025 SSE
 * answer is resumable (the `resumption` option): `GET` with
 * `Last-Event-ID` picks it up again; any other `GET` is `405`. A 2026-07-28 request
 * (by its body's `_meta`, or a 2026 `MCP-Protocol-Version`) must also carry
 * `MCP-Protocol-Version`, `Mcp-Method` and, on `tools/call`, `Mcp-Name`
 * and its tool's `Mcp-Param-*` headers that match its body. The route
 * sits behind the app's middleware but outside its controllers, so global
 * guards judge each tool call, not the envelope. It serves on Express and
 * on Fastify alike: the same handler, on the Node request and response.
 *
 * It serves from McpModule's own bootstrap until the app begins closing;
 * with `McpServerLifecycleModule`, while that says ready, through the drain
 * (which its `onModuleDestroy` starts too), each request in its turn.
 */
@Injectable()
export class McpHttpTransport
  implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('McpModule');
  /** From McpModule's bootstrap until the app begins closing. */
  private open = false;
  /** Set in `onModuleInit`, before the routes that use it. */
  private admission!: HttpAdmission;
  private readonly rpc: HttpJsonRpc;
  /** Resumable 2025 SSE answers; undefined: `resumption: false`. */
  private readonly resumption?: Resumption;
  private readonly resume?: HttpResume;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authGuard: McpAuthGuardRef,
    protocol: McpProtocol,
    private readonly catalogue: McpToolCatalogue,
    resources: McpResourceCatalogue,
    prompts: McpPromptCatalogue,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly resource: ProtectedResource,
    @Optional()
    @Inject(MCP_SERVING)
    private readonly serving: McpServing | null,
  ) {
    this.rpc = new HttpJsonRpc(
      protocol,
      settings.telemetry.principalId,
      settings.oauth &&
        new PermissionGate(
          catalogue,
          gatedTargets(catalogue, resources, prompts),
          resource,
          settings.oauth,
          settings.toolListPerCaller,
        ),
      (name) => catalogue.find(name)?.paramHeaders,
      (this.resumption = Resumption.of(settings)),
    );
    this.resume =
      this.resumption &&
      new HttpResume(this.resumption, settings.telemetry.principalId);
    // The body is read before the app's own body parser, which the app
    // registers when it initialises, so `maxBodySize` holds whatever that
    // parser's limit is.
    adapterHost.init$.subscribe(() =>
      this.express()?.post(
        settings.path,
        exactly(settings.path, bodyReader(settings.maxBodySize)),
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
    const { path, oauth } = this.settings;
    await this.resumption?.start();
    this.admission = new HttpAdmission(
      this.settings,
      this.resource,
      new OuterAuthenticator(
        await this.authGuard.resolve(),
        this.settings.serverName,
        this.handle,
        oauth && this.resource.unauthorized(oauth, true),
      ),
      () => this.isReady(),
      this.serving,
    );
    const routes: HttpRoute[] = oauth
      ? metadataRoutes(this.resource, oauth)
      : [];
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
        serve: (req, res, request, response) => {
          if (this.resume && HttpResume.asks(req)) {
            return this.resumeStream(req, res, request, response);
          }
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
    // A body declared over the limit is refused before `100 Continue`, so
    // its client never sends it; Nest creates the server with the app.
    answerExpectContinue(
      adapter.getHttpServer() as Server,
      (req) =>
        req.method === 'POST' &&
        targetPath(req) === path &&
        declaresTooLarge(req, this.settings.maxBodySize),
      (req, res) =>
        answerTooLarge(req, res, this.settings.maxBodySize, (refused) =>
          refused.end(),
        ),
    );
  }

  onApplicationBootstrap(): void {
    this.catalogue.prepare();
    this.open = true;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.serving) await this.serving.leave();
    else this.open = false;
    // Followers of resumed streams end; in Redis, the streams live on.
    await this.resumption?.store.close();
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
    if (!(await this.admission.admits(req, res, [request, response], true))) {
      return;
    }
    let message: unknown;
    try {
      message = await bodyMessage(req, this.settings.maxBodySize);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return answerTooLarge(req, res, this.settings.maxBodySize);
      }
      if (error instanceof McpProtocolError) {
        return sendJson(res, 400, error.toResponse(null));
      }
      throw error;
    }
    await this.rpc.answer(req, message, res, request);
  }

  /** Serves a GET with `Last-Event-ID`, admitted as a POST is. */
  private async resumeStream(
    req: BodyRequest,
    res: ServerResponse,
    request: AppRequest,
    response: object,
  ): Promise<void> {
    if (await this.admission.admits(req, res, [request, response], false)) {
      await this.resume!.serve(req, res, request);
    }
  }

  /** Serving: McpModule's own bootstrap passed, and the app's lifecycle (if any) ready. */
  private isReady(): boolean {
    return this.open && (this.serving?.isReady() ?? true);
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
