import { Inject, Injectable } from '@nestjs/common';
import { OperationRegistry } from '@nestops/operations/internal';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import {
  type McpOAuthSettings,
  PROTECTED_RESOURCE_WELL_KNOWN,
} from './oauth-options.resolver.js';
import { scopesFor } from './scopes.js';

/**
 * The endpoint as an OAuth protected resource: its RFC 9728 metadata,
 * written once, the paths that serve it, and the `WWW-Authenticate`
 * challenges that point clients to it.
 */
@Injectable()
export class ProtectedResource {
  private document?: string;

  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: OperationRegistry,
  ) {}

  /** The `oauth` settings; undefined when the endpoint is not a protected resource. */
  get oauth(): McpOAuthSettings | undefined {
    return this.settings.oauth;
  }

  /**
   * Where the metadata is served: the path form for the endpoint's path
   * and for `resource`'s own path (when a proxy publishes it under
   * another), and the bare well-known path.
   */
  paths(oauth: McpOAuthSettings): readonly string[] {
    const forms = [this.settings.path, new URL(oauth.resource).pathname].map(
      (path) =>
        path === '/'
          ? PROTECTED_RESOURCE_WELL_KNOWN
          : `${PROTECTED_RESOURCE_WELL_KNOWN}${path}`,
    );
    return [...new Set([...forms, PROTECTED_RESOURCE_WELL_KNOWN])];
  }

  /** The metadata document's JSON text, written once. */
  metadata(oauth: McpOAuthSettings): string {
    return (this.document ??= JSON.stringify({
      resource: oauth.resource,
      authorization_servers: oauth.authorizationServers,
      scopes_supported:
        oauth.scopesSupported ??
        scopesFor(
          [
            ...new Set(
              this.registry
                .exposedOn('mcp')
                .flatMap((operation) => operation.permissions),
            ),
          ].sort(),
          oauth.scopesOf,
        ),
      bearer_methods_supported: ['header'],
      ...(oauth.resourceName === undefined
        ? {}
        : { resource_name: oauth.resourceName }),
      ...(oauth.resourceDocumentation === undefined
        ? {}
        : { resource_documentation: oauth.resourceDocumentation }),
    }));
  }

  /** The `401` challenge: `error="invalid_token"` when a token was sent and refused. */
  unauthorized(oauth: McpOAuthSettings, tokenRefused: boolean): string {
    return `Bearer ${tokenRefused ? 'error="invalid_token", ' : ''}resource_metadata="${oauth.metadataUrl}"`;
  }

  /** The step-up `403` challenge: the scopes that grant `permissions`. */
  insufficientScope(
    oauth: McpOAuthSettings,
    permissions: readonly string[],
  ): string {
    const scope = scopesFor(permissions, oauth.scopesOf).join(' ');
    return `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${oauth.metadataUrl}"`;
  }
}
