import type { McpOAuthSettings } from '../../auth/oauth-options.resolver.js';
import type { ProtectedResource } from '../../auth/protected-resource.js';
import { sendJsonText } from './http-problem.js';
import type { HttpRoute } from './http-routes.js';

/** How long clients and caches may keep the protected resource metadata. */
const METADATA_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The RFC 9728 metadata, without authentication, cacheable and open to
 * browser-based clients (CORS for any origin, with its preflight).
 */
export function metadataRoutes(
  resource: ProtectedResource,
  oauth: McpOAuthSettings,
): HttpRoute[] {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  return resource.paths(oauth).flatMap((path): HttpRoute[] => [
    {
      method: 'GET',
      path,
      serve: (_req, res) =>
        sendJsonText(res, 200, resource.metadata(oauth), {
          ...cors,
          'Cache-Control': METADATA_CACHE_CONTROL,
        }),
    },
    {
      method: 'OPTIONS',
      path,
      serve: (req, res) => {
        res
          .writeHead(204, {
            ...cors,
            'Access-Control-Allow-Methods': 'GET, OPTIONS',
            'Access-Control-Allow-Headers':
              req.headers['access-control-request-headers'] ?? '*',
            'Access-Control-Max-Age': '86400',
          })
          .end();
      },
    },
  ]);
}
