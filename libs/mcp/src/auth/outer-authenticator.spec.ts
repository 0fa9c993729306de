import type { CanActivate } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { OuterAuthenticator } from './outer-authenticator.js';

/** A guard that refuses everyone and counts how often it was asked. */
class RefusingGuard implements CanActivate {
  asked = 0;
  canActivate(): boolean {
    this.asked++;
    return false;
  }
}

function post(authorization?: string): {
  req: IncomingMessage;
  res: ServerResponse;
} {
  const req = new IncomingMessage(new Socket());
  if (authorization !== undefined) {
    req.headers.authorization = authorization;
  }
  return { req, res: new ServerResponse(req) };
}

function handler(): void {}

describe('OuterAuthenticator.admit', () => {
  it('admits a POST without credentials at once, without asking the guard', () => {
    const guard = new RefusingGuard();
    const authenticator = new OuterAuthenticator(guard, 'realm', handler);
    const { req, res } = post();

    expect(authenticator.admit(req, res)).toBe(true);
    expect(guard.asked).toBe(0);
    expect(res.headersSent).toBe(false);
  });

  it('admits a POST with credentials at once when the app has no authGuard', () => {
    const authenticator = new OuterAuthenticator(undefined, 'realm', handler);
    const { req, res } = post('Bearer anything');

    expect(authenticator.admit(req, res)).toBe(true);
    expect(res.headersSent).toBe(false);
  });

  it('asks the guard about credentials, and answers 401 when it refuses', async () => {
    const guard = new RefusingGuard();
    const authenticator = new OuterAuthenticator(guard, 'realm', handler);
    const { req, res } = post('Bearer anything');

    expect(await authenticator.admit(req, res)).toBe(false);
    expect(guard.asked).toBe(1);
    expect(res.statusCode).toBe(401);
  });
});
