import type {
  McpJwtOptions,
  McpOAuthOptions,
  McpTokenRequirement,
} from '../interfaces/mcp-oauth-options.interface.js';

/** Where RFC 9728 puts a protected resource's metadata. */
export const PROTECTED_RESOURCE_WELL_KNOWN =
  '/.well-known/oauth-protected-resource';

/** JWT signing algorithms accepted when `jwt.algorithms` is left out. */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'PS256',
  'ES256',
  'EdDSA',
]);

/** The JWT verifier's options with every default applied. */
export interface McpJwtSettings {
  readonly issuer: string;
  readonly audience: string | readonly string[];
  readonly jwksUri?: string;
  readonly algorithms: readonly string[];
  readonly permissionClaims: readonly string[];
  readonly clockTolerance: number;
}

/** The `oauth` option with every default applied. */
export interface McpOAuthSettings {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
  readonly requireToken: McpTokenRequirement;
  readonly stepUp: boolean;
  readonly scopesOf: (permission: string) => readonly string[];
  readonly jwt?: McpJwtSettings;
  /** The metadata's URL, as RFC 9728 derives it from `resource`: what challenges name. */
  readonly metadataUrl: string;
}

const REQUIREMENTS: readonly McpTokenRequirement[] = [
  'always',
  'forPermission',
];
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks the `oauth` option, adding a line to `problems` for each bad
 * member; its settings when it is whole, else undefined.
 */
export function resolveOAuthOptions(
  given: McpOAuthOptions | undefined,
  problems: string[],
): McpOAuthSettings | undefined {
  if (given === undefined) {
    return undefined;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    problems.push('oauth must be an object');
    return undefined;
  }
  const before = problems.length;
  const resource = url(given.resource, 'oauth.resource', problems);
  if (resource && (resource.hash !== '' || resource.search !== '')) {
    problems.push('oauth.resource must have no query or fragment');
  }
  const servers = given.authorizationServers;
  if (!Array.isArray(servers) || servers.length === 0) {
    problems.push(
      'oauth.authorizationServers must list at least one issuer URL',
    );
  } else {
    servers.forEach((server, index) =>
      url(server, `oauth.authorizationServers[${index}]`, problems),
    );
  }
  const scopes = given.scopesSupported;
  if (
    scopes !== undefined &&
    (!Array.isArray(scopes) || scopes.some((scope) => !isScope(scope)))
  ) {
    problems.push(
      'oauth.scopesSupported must be a list of scopes (visible characters, no spaces or quotes)',
    );
  }
  if (
    given.resourceName !== undefined &&
    (typeof given.resourceName !== 'string' || given.resourceName.trim() === '')
  ) {
    problems.push('oauth.resourceName must be a non-empty string');
  }
  if (given.resourceDocumentation !== undefined) {
    url(given.resourceDocumentation, 'oauth.resourceDocumentation', problems);
  }
  const requireToken = given.requireToken ?? 'always';
  if (!REQUIREMENTS.includes(requireToken)) {
    problems.push(
      `oauth.requireToken must be ${REQUIREMENTS.map((r) => `'${r}'`).join(' or ')}`,
    );
  }
  if (given.stepUp !== undefined && typeof given.stepUp !== 'boolean') {
    problems.push('oauth.stepUp must be a boolean');
  }
  if (given.scopesOf !== undefined && typeof given.scopesOf !== 'function') {
    problems.push('oauth.scopesOf must be a function of a permission');
  }
  const jwt = resolveJwt(given, problems);
  if (problems.length > before || !resource) {
    return undefined;
  }
  return Object.freeze({
    resource: given.resource,
    authorizationServers: Object.freeze([...servers]),
    scopesSupported: scopes && Object.freeze([...scopes]),
    resourceName: given.resourceName,
    resourceDocumentation: given.resourceDocumentation,
    requireToken,
    stepUp: given.stepUp ?? false,
    scopesOf: given.scopesOf ?? ((permission: string) => [permission]),
    jwt,
    metadataUrl: metadataUrlOf(resource),
  });
}

/**
 * The metadata URL of a resource: the well-known path inserted between
 * its host and its path (RFC 9728, section 3.1).
 */
export function metadataUrlOf(resource: URL): string {
  const path = resource.pathname === '/' ? '' : resource.pathname;
  return `${resource.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

function resolveJwt(
  given: McpOAuthOptions,
  problems: string[],
): McpJwtSettings | undefined {
  const jwt: McpJwtOptions | undefined = given.jwt;
  if (jwt === undefined) {
    return undefined;
  }
  if (typeof jwt !== 'object' || jwt === null || Array.isArray(jwt)) {
    problems.push('oauth.jwt must be an object');
    return undefined;
  }
  if (jwt.issuer !== undefined) {
    url(jwt.issuer, 'oauth.jwt.issuer', problems);
  }
  if (jwt.jwksUri !== undefined) {
    url(jwt.jwksUri, 'oauth.jwt.jwksUri', problems);
  }
  const algorithms = jwt.algorithms ?? DEFAULT_JWT_ALGORITHMS;
  if (
    !Array.isArray(algorithms) ||
    algorithms.length === 0 ||
    algorithms.some((alg) => typeof alg !== 'string' || /^none$/i.test(alg))
  ) {
    problems.push(
      "oauth.jwt.algorithms must list at least one signing algorithm, never 'none'",
    );
  }
  const claims = jwt.permissionClaims ?? [];
  if (
    !Array.isArray(claims) ||
    claims.some((claim) => typeof claim !== 'string' || claim === '')
  ) {
    problems.push('oauth.jwt.permissionClaims must be a list of claim names');
  }
  const audience = jwt.audience ?? given.resource;
  if (
    typeof audience !== 'string' &&
    (!Array.isArray(audience) ||
      audience.length === 0 ||
      audience.some((aud) => typeof aud !== 'string' || aud === ''))
  ) {
    problems.push('oauth.jwt.audience must be a string or a list of strings');
  }
  const tolerance = jwt.clockTolerance ?? 0;
  if (!Number.isSafeInteger(tolerance) || tolerance < 0) {
    problems.push(
      'oauth.jwt.clockTolerance must be a whole number of seconds, 0 or more',
    );
  }
  return Object.freeze({
    issuer: jwt.issuer ?? given.authorizationServers?.[0],
    audience:
      typeof audience === 'string' ? audience : Object.freeze([...audience]),
    jwksUri: jwt.jwksUri,
    algorithms: Object.freeze([...algorithms]),
    permissionClaims: Object.freeze([...claims]),
    clockTolerance: tolerance,
  });
}

/** An absolute `https` URL, or `http` on a loopback host; else a problem. */
function url(value: unknown, key: string, problems: string[]): URL | undefined {
  const parsed =
    typeof value === 'string' && URL.canParse(value)
      ? new URL(value)
      : undefined;
  if (
    !parsed ||
    !(
      parsed.protocol === 'https:' ||
      (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname))
    )
  ) {
    problems.push(
      `${key} must be an absolute https URL (http only on localhost, 127.0.0.1 or [::1]); got ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  return parsed;
}

/** A scope token of RFC 6749 (no spaces, quotes or backslashes). */
function isScope(value: unknown): boolean {
  return typeof value === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(value);
}
