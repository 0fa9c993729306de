import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpJwtGuard } from '@nestops/mcp';
import { API_KEYS } from './api-keys';
import type { Principal } from './principal';
import { PERMISSIONS_METADATA } from './require-permissions.decorator';

/**
 * An ordinary HTTP guard: `Authorization: ApiKey <key>` sets `request.user`;
 * an unknown key is rejected; no header means anonymous. In OAuth mode
 * (`OAUTH_ISSUER`), `Authorization: Bearer <token>` is checked by the
 * library's `McpJwtGuard` instead, or with `OAUTH_VERIFIER=passport` by the
 * app's own passport-jwt strategy; either sets `request.user`. Routes marked
 * with `@RequirePermissions()` also need those permissions.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /**
   * In OAuth mode (as the app was started), what checks bearer tokens; the
   * passport guard is loaded only in its mode (`oauth-jwt.strategy.ts`
   * brings passport, passport-jwt and jwks-rsa).
   */
  private readonly bearer?: CanActivate | Promise<CanActivate>;

  constructor(
    private readonly reflector: Reflector,
    jwt: McpJwtGuard,
  ) {
    if (process.env.OAUTH_ISSUER) {
      this.bearer =
        process.env.OAUTH_VERIFIER === 'passport'
          ? import('./oauth-jwt.strategy.js').then((m) => new m.OAuthJwtGuard())
          : jwt;
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: Principal;
    }>();
    const header = request.headers.authorization;
    if (this.bearer && header !== undefined && /^Bearer /i.test(header)) {
      await (await this.bearer).canActivate(context);
    } else if (header !== undefined) {
      const key = /^ApiKey\s+(\S+)$/i.exec(header)?.[1];
      const principal = key === undefined ? undefined : API_KEYS.get(key);
      if (!principal) {
        throw new UnauthorizedException('Invalid API key.');
      }
      request.user = principal;
    }
    const required =
      this.reflector.getAllAndOverride<string[] | undefined>(
        PERMISSIONS_METADATA,
        [context.getHandler(), context.getClass()],
      ) ?? [];
    if (required.length === 0) {
      return true;
    }
    if (!request.user) {
      throw new UnauthorizedException('Authentication is required.');
    }
    const missing = required.find(
      (p) => !request.user?.permissions.includes(p),
    );
    if (missing !== undefined) {
      throw new ForbiddenException(`Permission '${missing}' is missing.`);
    }
    return true;
  }
}
