import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef, ModulesContainer } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { idOf } from '../json-rpc/json-rpc-envelope';
import {
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_PARSE_ERROR,
  JsonRpcResponse,
} from '../json-rpc/json-rpc.types';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants';
import { McpDispatcher } from '../mcp.dispatcher';
import { afterApplicationBootstrap, isShuttingDown } from '../nest-internals';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue';
import { sendJson, sendProblem } from './http-problem';
import { isOriginAllowed } from './origin.policy';
import { OuterAuthenticator } from './outer-authenticator';
import {
  BodyRequest,
  BodyTooLargeError,
  bodyReader,
  bodyText,
  isJsonRequest,
  Next,
} from './request-body.reader';

type Handler = (req: BodyRequest, res: ServerResponse, next: Next) => void;

interface ExpressLike {
  post(path: string, handler: Handler): void;
  all(path: string, handler: Handler): void;
}

/** JSON-RPC errors that mean the POST itself was bad: answered `400`. */
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
  /** From the end of the whole app's bootstrap until its shutdown begins. */
  private serving = false;
  /** Whether the end of the app's bootstrap is signalled (else McpModule's own stands in). */
  private awaitsApp = false;
  private authenticator = new OuterAuthenticator(undefined, '', this.handle);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly dispatcher: McpDispatcher,
    private readonly catalogue: McpToolCatalogue,
    private readonly modules: ModulesContainer,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {
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
    const app = this.express();
    if (!app) {
      throw new Error(
        `McpModule's HTTP transport needs @nestjs/platform-express; this app uses '${adapter.getType()}'.`,
      );
    }
    this.awaitsApp = afterApplicationBootstrap(this.modules, () => {
      this.serving = true;
    });
    this.authenticator = new OuterAuthenticator(
      await this.resolveAuthGuard(),
      this.settings.serverName,
      this.handle,
    );
    const { path } = this.settings;
    app.post(path, (req, res, next) => {
      this.handle(req, res).catch(next);
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
  }

  onApplicationBootstrap(): void {
    this.catalogue.tools();
    this.serving ||= !this.awaitsApp;
  }

  beforeApplicationShutdown(): void {
    this.serving = false;
  }

  private async handle(req: BodyRequest, res: ServerResponse): Promise<void> {
    if (!this.isReady()) {
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
    if (!isJsonRequest(req)) {
      return sendProblem(
        res,
        415,
        'Unsupported Media Type',
        'Send the JSON-RPC message as application/json.',
      );
    }
    if (!(await this.authenticator.admit(req, res))) {
      return;
    }
    let message: unknown;
    try {
      message = parseJson(await bodyText(req, this.settings.maxBodySize));
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

  /** Serving from the end of the app's bootstrap until its shutdown begins. */
  private isReady(): boolean {
    return this.serving && !isShuttingDown(this.adapterHost.httpAdapter);
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

  private express(): ExpressLike | undefined {
    const adapter = this.adapterHost.httpAdapter;
    return adapter?.getType() === 'express'
      ? adapter.getInstance<ExpressLike>()
      : undefined;
  }

  private async resolveAuthGuard() {
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw McpProtocolError.parse();
  }
}
