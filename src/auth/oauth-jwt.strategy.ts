import { Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { Strategy } from 'passport-jwt';
import type { Principal } from './principal';

/** The name the strategy is registered under with passport. */
export const OAUTH_JWT = 'oauth-jwt';

/** The most JWKS fetches a minute: each unknown `kid` costs one, up to this. */
export const JWKS_REQUESTS_PER_MINUTE = 10;

/** `Bearer <compact JWS>` and nothing after it but spaces, as the library's verifier reads it. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+) *$/i;

/** The token of `Authorization: Bearer <token>`, or null (passport answers 401). */
function bearerToken(request: {
  headers: Record<string, string | string[] | undefined>;
}): string | null {
  const header = request.headers.authorization;
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/**
 * True unless the protected header has `crit` or `b64`: jsonwebtoken knows
 * no extension, so it must refuse any it is asked to honour (RFC 7515 4.1.11).
 */
function plainHeader(token: string): boolean {
  try {
    const header: unknown = JSON.parse(
      Buffer.from(token.split('.')[0], 'base64url').toString('utf8'),
    );
    return (
      typeof header === 'object' &&
      header !== null &&
      !('crit' in header) &&
      !('b64' in header)
    );
  } catch {
    return false;
  }
}

/** `scope` as a space-separated string or an array of strings; undefined for anything else. */
function scopesOf(scope: unknown): string[] | undefined {
  if (scope === undefined) {
    return [];
  }
  if (typeof scope === 'string') {
    return scope.split(' ').filter(Boolean);
  }
  if (Array.isArray(scope) && scope.every((s) => typeof s === 'string')) {
    return scope.filter(Boolean);
  }
  return undefined;
}

/**
 * The app's own verifier of OAuth access tokens, the way Nest's
 * authentication recipe does it (`@nestjs/passport` with `passport-jwt`,
 * keys from the issuer's JWKS by `jwks-rsa`): `OAUTH_VERIFIER=passport`
 * uses it instead of the library's `McpJwtGuard`. It refuses (401) what that
 * verifier refuses: anything after the token, a `crit` or `b64` header, a
 * bad signature, `iss`, `aud` or algorithm, no `exp`, no `sub`, a claim of
 * the wrong type, a `scope` that is neither a string nor strings. The token's scopes are the
 * principal's permissions.
 */
@Injectable()
export class OAuthJwtStrategy extends PassportStrategy(Strategy, OAUTH_JWT) {
  constructor(issuer: string, resource: string) {
    // The issuer's keys, cached by `kid`; unknown kids fetch the JWKS at
    // most JWKS_REQUESTS_PER_MINUTE times a minute, then are refused.
    const keys = passportJwtSecret({
      jwksUri: `${issuer}/jwks`,
      cache: true,
      rateLimit: true,
      jwksRequestsPerMinute: JWKS_REQUESTS_PER_MINUTE,
    });
    super({
      jwtFromRequest: bearerToken,
      secretOrKeyProvider: (request, token: string, done) =>
        plainHeader(token)
          ? keys(request, token, done)
          : done(new Error('Unsupported JWS header parameter.')),
      issuer,
      audience: resource,
      algorithms: ['RS256'],
    });
  }

  /**
   * The principal, or false (401) when `exp` or `sub` is missing or
   * malformed, `iat` is not a number, or `scope` is neither text nor strings
   * (jsonwebtoken checks the types of `exp`, `nbf`, `iss` and `aud` itself).
   */
  validate(payload: Record<string, unknown>): Principal | false {
    const permissions = scopesOf(payload.scope);
    if (
      typeof payload.exp !== 'number' ||
      typeof payload.sub !== 'string' ||
      payload.sub === '' ||
      (payload.iat !== undefined && typeof payload.iat !== 'number') ||
      permissions === undefined
    ) {
      return false;
    }
    return { id: payload.sub, permissions, tenants: ['default'] };
  }
}

/** Runs `OAuthJwtStrategy`: a refused token throws `UnauthorizedException`. */
export class OAuthJwtGuard extends AuthGuard(OAUTH_JWT) {}
