import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import type {
  CanActivate,
  INestApplicationContext,
  Type,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObservable, lastValueFrom } from 'rxjs';
import { HttpExecutionContext } from '../transports/http/http-execution-context.js';
import { correlationIdOf } from '@nestops/operations/internal';
import { sendProblem } from '../transports/http/http-problem.js';

const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)/;

/** A caller's headers, by lower-case name. */
type CallerHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What the guard said about the credentials. */
type Verdict = 'authenticated' | 'rejected' | 'failed';

/**
 * Runs the app's authentication guard on the endpoint's POST when it carries
 * credentials. Credentials the guard rejects (false, or a `401` exception)
 * end the request with `401` and a `WWW-Authenticate` challenge, before any
 * JSON-RPC handling (in OAuth mode, `Bearer error="invalid_token"` with
 * the metadata URL). A `403` exception admits the request: the credentials
 * were recognised, and authorization is judged per call by the call's own
 * guards. Any other error is the guard failing, not the credentials: `500`
 * with a correlation id, under which the error is logged.
 */
export class OuterAuthenticator {
  private readonly logger = new Logger('McpHttpTransport');

  constructor(
    private readonly guard: CanActivate | undefined,
    private readonly realm: string,
    private readonly handler: Function,
    /** In OAuth mode, the whole challenge for refused credentials. */
    private readonly oauthChallenge?: string,
  ) {}

  /**
   * False when the request was answered (`401` or `500`); true at once,
   * without a promise, when there is nothing to judge. The guard is given
   * `args`: the request and response as the app's routes see them
   * (default: `req` and `res`).
   */
  admit(
    req: IncomingMessage,
    res: ServerResponse,
    args: readonly unknown[] = [req, res],
  ): boolean | Promise<boolean> {
    const authorization = req.headers.authorization;
    return !this.guard || authorization === undefined
      ? true
      : this.judge(this.guard, authorization, req, res, args);
  }

  /**
   * The principal the guard sets (`request.user`) for credentials a carrier
   * other than HTTP was given once for all its calls (the command line's
   * `--authorization`), read from a request of those headers alone.
   * Undefined without credentials, or when the guard refuses them or fails:
   * each call is still judged by its own guards.
   */
  async principalOf(headers: CallerHeaders): Promise<unknown> {
    if (!this.guard || headers.authorization === undefined) {
      return undefined;
    }
    const request = headerRequest(headers);
    let verdict: Verdict;
    try {
      verdict = (await this.ask(this.guard, [request, {}]))
        ? 'authenticated'
        : 'rejected';
    } catch (error) {
      verdict = verdictOf(error);
    }
    return verdict === 'authenticated' ? request.user : undefined;
  }

  private async judge(
    guard: CanActivate,
    authorization: string,
    req: IncomingMessage,
    res: ServerResponse,
    args: readonly unknown[],
  ): Promise<boolean> {
    let verdict: Verdict;
    let failure: unknown;
    try {
      verdict = (await this.ask(guard, args)) ? 'authenticated' : 'rejected';
    } catch (error) {
      verdict = verdictOf(error);
      failure = error;
    }
    switch (verdict) {
      case 'authenticated':
        return true;
      case 'rejected':
        this.challenge(res, authorization);
        return false;
      case 'failed':
        this.fail(req, res, failure);
        return false;
    }
  }

  private async ask(
    guard: CanActivate,
    args: readonly unknown[],
  ): Promise<boolean> {
    const context = new HttpExecutionContext(
      [...args],
      OuterAuthenticator,
      this.handler,
    );
    const verdict = guard.canActivate(context);
    return Boolean(
      await (isObservable(verdict) ? lastValueFrom(verdict) : verdict),
    );
  }

  private challenge(res: ServerResponse, authorization: string): void {
    const scheme = SCHEME.exec(authorization)?.[1] ?? 'Bearer';
    sendProblem(res, 401, 'Unauthorized', 'The credentials are not valid.', {
      'WWW-Authenticate':
        this.oauthChallenge ?? `${scheme} realm="${this.realm}"`,
    });
  }

  private fail(
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
  ): void {
    const correlationId = correlationIdOf(req.headers);
    this.logger.error(
      `The authGuard failed while checking credentials (correlation id ${correlationId})`,
      error instanceof Error ? error.stack : String(error),
    );
    sendProblem(
      res,
      500,
      'Internal Server Error',
      `The credentials could not be checked (correlation id ${correlationId}).`,
      {},
      { correlationId },
    );
  }
}

function verdictOf(error: unknown): Verdict {
  if (!(error instanceof HttpException)) {
    return 'failed';
  }
  switch (error.getStatus()) {
    case HttpStatus.UNAUTHORIZED:
      return 'rejected';
    case HttpStatus.FORBIDDEN:
      return 'authenticated';
    default:
      return 'failed';
  }
}

/** A request of headers alone, as an HTTP guard reads one (`headers`, `get()`, `header()`, `user`). */
function headerRequest(headers: CallerHeaders) {
  const own = Object.freeze({ ...headers });
  const get = (name: string) => own[name.toLowerCase()];
  return { headers: own, get, header: get, user: undefined as unknown };
}

/**
 * The module's `authGuard`, resolved in McpModule's own injector: the app's
 * provider of that class where it has one, else an instance made for the
 * endpoint. Resolved on first use, once every module's providers exist; the
 * HTTP endpoint and the command line's stdio sessions share it.
 */
@Injectable()
export class McpAuthGuardRef {
  private guard?: Promise<CanActivate | undefined>;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  resolve(): Promise<CanActivate | undefined> {
    return (this.guard ??= this.instance(this.settings.authGuard));
  }

  private async instance(
    type: Type<CanActivate> | undefined,
  ): Promise<CanActivate | undefined> {
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

/**
 * The principal a caller's tool list is that of, for carriers without the
 * HTTP endpoint (stdio sessions, the testing kit): under
 * `toolListPerCaller`, what the module's `authGuard` makes of `headers`
 * (`handler` names the carrier to the guard); otherwise undefined, as
 * every caller gets the whole list.
 */
export async function listPrincipalOf(
  app: INestApplicationContext,
  headers: CallerHeaders,
  handler: Function,
): Promise<unknown> {
  const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
  if (!settings.toolListPerCaller) {
    return undefined;
  }
  const guard = await app.get(McpAuthGuardRef, { strict: false }).resolve();
  return new OuterAuthenticator(
    guard,
    settings.serverName,
    handler,
  ).principalOf(headers);
}
