import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEYS } from './api-keys';
import type { Principal } from './principal';
import { PERMISSIONS_METADATA } from './require-permissions.decorator';

/**
 * An ordinary HTTP guard: `Authorization: ApiKey <key>` sets `request.user`;
 * an unknown key is rejected; no header means anonymous. Routes marked with
 * `@RequirePermissions()` also need those permissions.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: Principal;
    }>();
    const header = request.headers.authorization;
    if (header !== undefined) {
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
