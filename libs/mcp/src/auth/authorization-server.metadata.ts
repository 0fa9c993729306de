/**
 * The `jwks_uri` of an issuer, from its metadata: RFC 8414's
 * `/.well-known/oauth-authorization-server` (inserted before the issuer's
 * path), else OpenID Connect's `/.well-known/openid-configuration`
 * (appended). The metadata must name the same issuer.
 */
export async function jwksUriOf(issuer: string): Promise<string> {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  const failures: string[] = [];
  for (const candidate of candidates) {
    const response = await fetch(candidate, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) {
      failures.push(`${candidate}: HTTP ${response.status}`);
      continue;
    }
    const metadata = (await response.json()) as {
      issuer?: unknown;
      jwks_uri?: unknown;
    };
    if (metadata.issuer !== issuer || typeof metadata.jwks_uri !== 'string') {
      failures.push(
        `${candidate}: names issuer ${JSON.stringify(metadata.issuer)} and jwks_uri ${JSON.stringify(metadata.jwks_uri)}`,
      );
      continue;
    }
    return metadata.jwks_uri;
  }
  throw new Error(
    `The signing keys of ${issuer} could not be located (${failures.join('; ')}).`,
  );
}
