import { Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Principal } from './principal';

/** The name the strategy is registered under with passport. */
export const OAUTH_JWT = 'oauth-jwt';

/**
 * The app's own verifier of OAuth access tokens, the way Nest's
 * authentication recipe does it (`@nestjs/passport` with `passport-jwt`,
 * keys from the issuer's JWKS by `jwks-rsa`): `OAUTH_VERIFIER=passport`
 * uses it instead of the library's `McpJwtGuard`. `iss`, `aud` (the
 * resource), `exp` and the algorithm are checked; the token's scopes are
 * the principal's permissions.
 */
@Injectable()
export class OAuthJwtStrategy extends PassportStrategy(Strategy, OAUTH_JWT) {
  constructor(issuer: string, resource: string) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // The sample's authorization server publishes its keys here.
      secretOrKeyProvider: passportJwtSecret({
        jwksUri: `${issuer}/jwks`,
        cache: true,
      }),
      issuer,
      audience: resource,
      algorithms: ['RS256'],
    });
  }

  validate(payload: { sub: string; scope?: string }): Principal {
    return {
      id: payload.sub,
      permissions: (payload.scope ?? '').split(' ').filter(Boolean),
      tenants: ['default'],
    };
  }
}

/** Runs `OAuthJwtStrategy`: a refused token throws `UnauthorizedException`. */
export class OAuthJwtGuard extends AuthGuard(OAUTH_JWT) {}
