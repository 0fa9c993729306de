import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { CanActivate } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObservable, lastValueFrom } from 'rxjs';
import { HttpExecutionContext } from './http-execution-context.js';
import { correlationIdOf } from '@nestops/operations';
import { sendProblem } from './http-problem.js';

const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)/;

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
   * without a promise, when there is nothing to judge.
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> {
    const authorization = req.headers.authorization;
    return !this.guard || authorization === undefined
      ? true
      : this.judge(this.guard, authorization, req, res);
  }

  private async judge(
    guard: CanActivate,
    authorization: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> {
    let verdict: Verdict;
    let failure: unknown;
    try {
      verdict = (await this.ask(guard, req, res))
        ? 'authenticated'
        : 'rejected';
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
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> {
    const context = new HttpExecutionContext(
      [req, res],
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
