import {
  CanActivate,
  ExecutionContext,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';

export interface User {
  id: string;
  permissions: string[];
}

const USERS = new Map<string, User>([
  ['alice-token', { id: 'alice', permissions: ['notes.read', 'notes.write'] }],
  ['bob-token', { id: 'bob', permissions: ['notes.read'] }],
]);

/** `Authorization: Bearer <token>` sets `request.user`; none: anonymous. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: User;
    }>();
    const header = request.headers.authorization;
    if (header === undefined) {
      return true;
    }
    const token = /^Bearer (\S+)$/i.exec(header)?.[1];
    const user = token === undefined ? undefined : USERS.get(token);
    if (!user) {
      throw new UnauthorizedException('Unknown token.');
    }
    request.user = user;
    return true;
  }
}
