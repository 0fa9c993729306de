/**
 * The MCP endpoint as an OAuth 2.1 protected resource (RFC 9728): the app
 * keeps its own authorization server; the library never issues tokens.
 *
 * @publicApi
 */
export interface McpOAuthOptions {
  /**
   * The public URL clients call (`https://api.example.com/mcp`): the
   * metadata's `resource`, the audience tokens must name. Never guessed
   * from a request's `Host`. `https`, or `http` on a loopback host.
   */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for it; at least one. */
  authorizationServers: readonly string[];
  /**
   * The metadata's `scopes_supported`. Default: the scopes of every
   * permission the published operations need (through `scopesOf`).
   */
  scopesSupported?: readonly string[];
  /** The metadata's `resource_name`, shown to users by clients. */
  resourceName?: string;
  /** The metadata's `resource_documentation`: a URL of documentation for developers. */
  resourceDocumentation?: string;
  /**
   * When the MCP endpoint answers a POST that carries no token with `401`
   * and the OAuth challenge:
   * - `'always'`: every POST without one (a client runs its OAuth flow when
   *   it connects);
   * - `'forPermission'`: only a `tools/call` of an operation that needs a
   *   permission; anonymous `initialize`, `tools/list` and calls of open
   *   operations are served. Under `toolListPerCaller`, an anonymous
   *   `tools/list` that would be empty gets the `401` too, so the client
   *   logs in.
   *
   * Default: `'always'`.
   */
  requireToken?: 'always' | 'forPermission';
  /**
   * Step-up: a `tools/call` whose operation needs a permission the
   * caller's token lacks is answered HTTP `403` with
   * `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`,
   * so the client can ask the user for more. Default: false (the call's
   * result is `isError` `SECURITY_DENIED_004`).
   */
  stepUp?: boolean;
  /**
   * The scopes that grant a permission, all of them needed. Default: the
   * permission itself (`orders.write` is granted by the scope
   * `orders.write`). An empty list means no scope grants it (never
   * "anyone"): only a scope or permission claim naming the permission
   * itself gives it, and `scopes_supported` leaves it out.
   */
  scopesOf?: (permission: string) => readonly string[];
  /**
   * Verify JWT access tokens with the library's verifier: then
   * `authGuard` defaults to `McpJwtGuard`, which the app also registers
   * for every call (`{ provide: APP_GUARD, useExisting: McpJwtGuard }`).
   * Without it, the app's own `authGuard` judges the tokens.
   *
   * The verifier checks the token's signature against the authorization
   * server's JWKS (fetched from its metadata and cached), `iss`, `aud`
   * naming this resource, `exp` (required) and `nbf`, an algorithm
   * allow-list, and the types of the registered claims (`sub` a non-empty
   * string, `aud` a string or strings, `exp`, `nbf`, `iat` numbers, `scope`
   * a string, `scp` a string or strings; any other: `401`). The
   * token's scopes, and the claims named here, become the principal's
   * permissions.
   */
  jwt?: {
    /**
     * The `iss` the tokens must carry. Default: the first of
     * `authorizationServers`.
     */
    issuer?: string;
    /**
     * Where the signing keys are. Default: the `jwks_uri` of the issuer's
     * metadata (`/.well-known/oauth-authorization-server`, else
     * `/.well-known/openid-configuration`), read once.
     */
    jwksUri?: string;
    /**
     * The `aud` tokens must name (one of them, if several). Default:
     * `resource`. For a server that names the API otherwise (Microsoft
     * Entra's v2 tokens carry the application's client id).
     */
    audience?: string | readonly string[];
    /** Signing algorithms accepted. Default: `RS256`, `PS256`, `ES256`, `EdDSA`. */
    algorithms?: readonly string[];
    /**
     * Claims whose values (a list, or a space-separated string) are
     * permissions too, besides the scopes of `scope` and `scp`: Auth0's
     * `permissions`, Entra's `roles`. Default: none.
     */
    permissionClaims?: readonly string[];
    /** Leeway in seconds for `exp` and `nbf`. Default: 0. */
    clockTolerance?: number;
  };
}

/** When a POST without a token gets the `401` challenge (`McpOAuthOptions.requireToken`). */
export type McpTokenRequirement = NonNullable<McpOAuthOptions['requireToken']>;

/** The JWT verifier's settings (`McpOAuthOptions.jwt`). */
export type McpJwtOptions = NonNullable<McpOAuthOptions['jwt']>;
