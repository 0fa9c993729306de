import type { CanActivate } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObservable, lastValueFrom } from 'rxjs';
import { ExecutionContextHost } from '../nest-internals';
import { sendProblem } from './http-problem';

const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)/;

/**
 * Runs the app's authentication guard on the endpoint's POST when it carries
 * credentials: credentials the guard rejects end the request with `401` and
 * a `WWW-Authenticate` challenge, before any JSON-RPC handling.
 */
export class OuterAuthenticator {
  constructor(
    private readonly guard: CanActivate | undefined,
    private readonly realm: string,
    private readonly handler: Function,
  ) {}

  /** False when the request was answered `401`. */
  async admit(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const authorization = req.headers.authorization;
    if (!this.guard || authorization === undefined) {
      return true;
    }
    const context = new ExecutionContextHost(
      [req, res],
      OuterAuthenticator,
      this.handler,
    );
    let accepted: boolean;
    try {
      const verdict = this.guard.canActivate(context);
      accepted = Boolean(
        await (isObservable(verdict) ? lastValueFrom(verdict) : verdict),
      );
    } catch {
      accepted = false;
    }
    if (!accepted) {
      const scheme = SCHEME.exec(authorization)?.[1] ?? 'Bearer';
      sendProblem(res, 401, 'Unauthorized', 'The credentials are not valid.', {
        'WWW-Authenticate': `${scheme} realm="${this.realm}"`,
      });
    }
    return accepted;
  }
}
