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
 * library's `McpJwtGuard` instead, which sets `request.user`. Routes marked
 * with `@RequirePermissions()` also need those permissions.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** OAuth mode, as the app was started. */
  private readonly oauth = Boolean(process.env.OAUTH_ISSUER);

  constructor(
    private readonly reflector: Reflector,
    private readonly jwt: McpJwtGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: Principal;
    }>();
    const header = request.headers.authorization;
    if (this.oauth && header !== undefined && /^Bearer /i.test(header)) {
      await this.jwt.canActivate(context);
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
