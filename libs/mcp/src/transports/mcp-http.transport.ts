import {
  BeforeApplicationShutdown,
  CanActivate,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lastValueFrom, isObservable } from 'rxjs';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error';
import { idOf } from '../json-rpc/json-rpc-envelope';
import {
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_PARSE_ERROR,
  JsonRpcResponse,
} from '../json-rpc/json-rpc.types';
import { McpDispatcher } from '../mcp.dispatcher';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants';
import { ExecutionContextHost } from '../nest-internals';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue';
import { sendJson, sendProblem } from './http-problem';
import { isOriginAllowed } from './origin.policy';
import { BodyTooLargeError, readBody } from './request-body.reader';

type Request = IncomingMessage & { body?: unknown; path?: string };
type Next = (error?: unknown) => void;
type Body =
  { readonly parsed: unknown } | { readonly text: string } | undefined;

interface ExpressLike {
  post(
    path: string,
    handler: (req: Request, res: ServerResponse, next: Next) => void,
  ): void;
  all(path: string, handler: (req: Request, res: ServerResponse) => void): void;
  use(
    path: string,
    handler: (
      error: unknown,
      req: Request,
      res: ServerResponse,
      next: Next,
    ) => void,
  ): void;
}

const BAD_REQUEST_CODES: ReadonlySet<number> = new Set([
  JSON_RPC_PARSE_ERROR,
  JSON_RPC_INVALID_REQUEST,
]);

/**
 * The Streamable HTTP transport: `POST <path>`, one JSON-RPC message per
 * request and one `application/json` answer; no SSE, no sessions. The route
 * sits behind the app's middleware but outside its controllers, so global
 * guards judge each tool call, not the envelope.
 */
@Injectable()
export class McpHttpTransport
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('McpHttpTransport');
  private ready = false;
  private authGuard?: CanActivate;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly dispatcher: McpDispatcher,
    private readonly catalogue: McpToolCatalogue,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) {
      return;
    }
    if (adapter.getType() !== 'express') {
      throw new Error(
        `McpModule's HTTP transport needs @nestjs/platform-express; this app uses '${adapter.getType()}'.`,
      );
    }
    this.authGuard = await this.resolveAuthGuard();
    const app = adapter.getInstance<ExpressLike>();
    const { path } = this.settings;
    app.post(path, (req, res, next) => {
      this.handle(req, res, undefined).catch(next);
    });
    app.all(path, (_req, res) => {
      res.setHeader('Allow', 'POST');
      sendProblem(
        res,
        405,
        'Method Not Allowed',
        `Only POST is served at ${path}.`,
      );
    });
    app.use(path, (error, req, res, next) => {
      this.handleBodyParserError(error, req, res).then(
        (handled) => handled || next(error),
        next,
      );
    });
  }

  onApplicationBootstrap(): void {
    this.catalogue.tools();
    this.ready = true;
  }

  beforeApplicationShutdown(): void {
    this.ready = false;
  }

  private async handle(
    req: Request,
    res: ServerResponse,
    body: Body,
  ): Promise<void> {
    if (!this.ready || !this.catalogue.isBuilt) {
      return sendProblem(
        res,
        503,
        'Service Unavailable',
        'The application is not ready.',
        {
          'Retry-After': '1',
        },
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
    const contentType = req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      return sendProblem(
        res,
        415,
        'Unsupported Media Type',
        'Send the JSON-RPC message as application/json.',
      );
    }
    if (
      Number(req.headers['content-length'] ?? 0) > this.settings.maxBodySize
    ) {
      return this.tooLarge(res);
    }
    if (!(await this.authenticates(req, res))) {
      return;
    }
    let message: unknown;
    try {
      message = await this.parse(req, body);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return this.tooLarge(res);
      }
      if (error instanceof McpProtocolError) {
        return sendJson(res, 400, error.toResponse(null));
      }
      throw error;
    }
    const version = req.headers['mcp-protocol-version'];
    if (
      version !== undefined &&
      !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))
    ) {
      const error = McpProtocolError.unsupportedVersion(
        String(version),
        SUPPORTED_PROTOCOL_VERSIONS,
      );
      return sendJson(res, 400, error.toResponse(idOf(message)));
    }
    let response: JsonRpcResponse | undefined;
    try {
      response = await this.dispatcher.dispatch(message, {
        headers: req.headers,
      });
    } catch (error) {
      this.logger.error(
        'MCP request failed',
        error instanceof Error ? error.stack : String(error),
      );
      return sendJson(res, 500, {
        jsonrpc: '2.0',
        id: idOf(message),
        error: {
          code: -32603,
          message: 'Internal error.',
          data: { code: 'INTERNAL_ERROR_001' },
        },
      });
    }
    if (!response) {
      res.writeHead(202).end();
      return;
    }
    const status =
      'error' in response && BAD_REQUEST_CODES.has(response.error.code)
        ? 400
        : 200;
    sendJson(res, status, response);
  }

  private async parse(req: Request, body: Body): Promise<unknown> {
    if (body && 'parsed' in body) {
      return body.parsed;
    }
    // A body parser of the app may already have read the stream.
    const text =
      body?.text ??
      (req.readableEnded
        ? undefined
        : await readBody(req, this.settings.maxBodySize));
    if (text === undefined) {
      return req.body;
    }
    try {
      return JSON.parse(text);
    } catch {
      throw McpProtocolError.parse();
    }
  }

  /**
   * The app's JSON body parser runs before this route; its failures arrive
   * here. JSON it refuses in strict mode (a bare number or string) is still
   * JSON, and answered as an invalid request.
   */
  private async handleBodyParserError(
    error: unknown,
    req: Request,
    res: ServerResponse,
  ): Promise<boolean> {
    const type = (error as { type?: unknown } | null)?.type;
    if (req.method !== 'POST' || (req.path !== undefined && req.path !== '/')) {
      return false;
    }
    if (type === 'entity.too.large') {
      this.tooLarge(res);
      return true;
    }
    if (type === 'entity.parse.failed') {
      const text = String((error as { body?: unknown }).body ?? '');
      await this.handle(req, res, { text });
      return true;
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      sendProblem(
        res,
        415,
        'Unsupported Media Type',
        'Send the JSON-RPC message as UTF-8 JSON.',
      );
      return true;
    }
    return false;
  }

  private tooLarge(res: ServerResponse): void {
    sendProblem(
      res,
      413,
      'Content Too Large',
      `The body exceeds ${this.settings.maxBodySize} bytes.`,
      {
        Connection: 'close',
      },
    );
  }

  private async authenticates(
    req: Request,
    res: ServerResponse,
  ): Promise<boolean> {
    const authorization = req.headers.authorization;
    if (!this.authGuard || authorization === undefined) {
      return true;
    }
    const context = new ExecutionContextHost(
      [req, res],
      McpHttpTransport,
      this.handle,
    );
    let accepted: boolean;
    try {
      const verdict = this.authGuard.canActivate(context);
      accepted = Boolean(
        await (isObservable(verdict) ? lastValueFrom(verdict) : verdict),
      );
    } catch {
      accepted = false;
    }
    if (!accepted) {
      const scheme =
        /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)/.exec(authorization)?.[1] ?? 'Bearer';
      sendProblem(res, 401, 'Unauthorized', 'The credentials are not valid.', {
        'WWW-Authenticate': `${scheme} realm="${this.settings.serverName}"`,
      });
    }
    return accepted;
  }

  private async resolveAuthGuard(): Promise<CanActivate | undefined> {
    const type = this.settings.authGuard;
    if (!type) {
      return undefined;
    }
    try {
      return this.moduleRef.get(type, { strict: false });
    } catch {
      return this.moduleRef.create(type);
    }
  }
}
