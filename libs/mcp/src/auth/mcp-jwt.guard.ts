import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { OperationRegistry } from '@nestops/operations/internal';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import type { McpSettings } from '../options/mcp-settings.js';
import { MCP_SETTINGS } from '../options/mcp-settings.js';
import { jwksUriOf } from './authorization-server.metadata.js';
import type { McpJwtSettings } from './oauth-options.resolver.js';
import { grantedPermissions } from './scopes.js';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Who a verified access token speaks for: `request.user` once `McpJwtGuard`
 * has accepted the token.
 *
 * @publicApi
 */
export interface McpTokenPrincipal {
  /** The token's `sub`. */
  readonly id: string;
  /**
   * The token's scopes, the values of `permissionClaims`, and every
   * permission of the app whose scopes (`scopesOf`) the token holds.
   */
  readonly permissions: readonly string[];
  /** The token's scopes (`scope`, or `scp`). */
  readonly scopes: readonly string[];
  /** The token's verified claims. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * The ready verifier of JWT access tokens (the `oauth.jwt` option), as a
 * guard: `Authorization: Bearer <jwt>` is verified with `jose` (signature
 * against the issuer's JWKS, fetched and cached; `iss`; `aud` naming the
 * resource; `exp` (required), `nbf`; the algorithm allow-list; the types
 * of the registered claims: `sub` a non-empty string, `scope` a string,
 * `scp` a string or a list of strings...) and sets `request.user` to a
 * `McpTokenPrincipal`. A token it refuses throws
 * `UnauthorizedException` (at the endpoint: `401 invalid_token`). No
 * header: anonymous. The token goes nowhere: only the issuer's metadata and
 * keys are fetched.
 *
 * Register it for every call as well:
 * `{ provide: APP_GUARD, useExisting: McpJwtGuard }`.
 *
 * @publicApi
 */
@Injectable()
export class McpJwtGuard implements CanActivate {
  private keys?: Promise<JWTVerifyGetKey>;
  private permissions?: readonly string[];

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: OperationRegistry,
  ) {}

  /**
   * Anonymous without `Authorization`; else the bearer token verified and
   * its principal set as `request.user`, or `UnauthorizedException`.
   */
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      headers: Readonly<Record<string, string | string[] | undefined>>;
      user?: unknown;
    }>();
    const header = request.headers.authorization;
    if (header === undefined) {
      return true;
    }
    const token = BEARER.exec(String(header))?.[1];
    if (token === undefined) {
      throw new UnauthorizedException(
        'Send the access token as Authorization: Bearer <token>.',
      );
    }
    request.user = await this.verify(token);
    return true;
  }

  private async verify(token: string): Promise<McpTokenPrincipal> {
    const jwt = this.jwtSettings();
    // An ES module: loaded on first use, so that apps (and test runners)
    // that never check a token never load it.
    const { errors, jwtVerify } = await loadJose();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySet(jwt), {
        issuer: jwt.issuer,
        audience:
          typeof jwt.audience === 'string' ? jwt.audience : [...jwt.audience],
        algorithms: [...jwt.algorithms],
        clockTolerance: jwt.clockTolerance,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      if (
        error instanceof errors.JOSEError &&
        !isKeyFetchFailure(error, errors)
      ) {
        throw new UnauthorizedException('The access token is not valid.');
      }
      throw error;
    }
    if (!hasClaimTypes(payload)) {
      throw new UnauthorizedException('The access token is not valid.');
    }
    const scopes = scopesOf(payload);
    const extra = jwt.permissionClaims.flatMap((claim) =>
      listOf(payload[claim]),
    );
    const { scopesOf: scopesOfPermission } = this.oauthSettings();
    return Object.freeze({
      id: payload.sub,
      scopes: Object.freeze(scopes),
      permissions: Object.freeze(
        grantedPermissions(
          [...scopes, ...extra],
          this.appPermissions(),
          scopesOfPermission,
        ),
      ),
      claims: Object.freeze(payload),
    });
  }

  /** The issuer's keys: located once, then cached (and refreshed for an unknown `kid`) by `jose`. */
  private keySet(jwt: McpJwtSettings): Promise<JWTVerifyGetKey> {
    this.keys ??= (async () => {
      const uri = jwt.jwksUri ?? (await jwksUriOf(jwt.issuer));
      const { createRemoteJWKSet } = await loadJose();
      return createRemoteJWKSet(new URL(uri));
    })();
    this.keys.catch(() => {
      this.keys = undefined;
    });
    return this.keys;
  }

  private appPermissions(): readonly string[] {
    return (this.permissions ??= [
      ...new Set(
        this.registry.list().flatMap((operation) => operation.permissions),
      ),
    ]);
  }

  private oauthSettings() {
    const { oauth } = this.settings;
    if (!oauth) {
      throw new Error(
        'McpJwtGuard needs McpModule.forRoot({ oauth: { ..., jwt: {} } }).',
      );
    }
    return oauth;
  }

  private jwtSettings(): McpJwtSettings {
    const { jwt } = this.oauthSettings();
    if (!jwt) {
      throw new Error(
        'McpJwtGuard needs the oauth.jwt option of McpModule.forRoot().',
      );
    }
    return jwt;
  }
}

type Jose = typeof import('jose');

function loadJose(): Promise<Jose> {
  return import('jose');
}

/** The keys could not be had (the issuer down): the guard failing, not the token. */
function isKeyFetchFailure(
  error: InstanceType<Jose['errors']['JOSEError']>,
  errors: Jose['errors'],
): boolean {
  return (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error.code === 'ERR_JOSE_GENERIC'
  );
}

/** A payload whose registered claims have the types RFC 7519 and RFC 9068 give them. */
type TypedPayload = JWTPayload & { readonly sub: string };

/**
 * Whether each registered claim the token has is of its type: `sub` a
 * non-empty string, `iss` a string, `aud` a string or a list of strings,
 * `exp`, `nbf`, `iat` numbers, `scope` a string, `scp` a string or a list
 * of strings. A token the issuer signed with other types is refused rather
 * than read (`String({})` is `[object Object]`).
 */
function hasClaimTypes(payload: JWTPayload): payload is TypedPayload {
  const { sub, iss, aud, exp, nbf, iat, scope, scp } = payload;
  return (
    typeof sub === 'string' &&
    sub !== '' &&
    optional(iss, isString) &&
    optional(aud, isStringOrStrings) &&
    optional(exp, isNumber) &&
    optional(nbf, isNumber) &&
    optional(iat, isNumber) &&
    optional(scope, isString) &&
    optional(scp, isStringOrStrings)
  );
}

function optional(value: unknown, is: (value: unknown) => boolean): boolean {
  return value === undefined || is(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

function isStringOrStrings(value: unknown): boolean {
  return isString(value) || (Array.isArray(value) && value.every(isString));
}

/** The scopes of `scope` (RFC 9068: space-separated) or `scp` (a list or a string). */
function scopesOf(payload: JWTPayload): string[] {
  return listOf(payload.scope ?? payload.scp);
}

function listOf(value: unknown): string[] {
  if (typeof value === 'string') {
    return value.split(' ').filter((item) => item !== '');
  }
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
