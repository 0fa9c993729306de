import type { McpModuleOptions, McpServerLifecycleOptions } from '@nestops/mcp';
import { ApiKeyGuard } from './auth/api-key.guard';
import { tenantOfHeaders } from './auth/tenant';
import { MCP_SERVER } from './mcp.server';

/**
 * How the sample's server leaves service, from its environment:
 * `GET /ready` answers its readiness, and `SHUTDOWN_DRAIN_DELAY=<ms>` is how
 * long, on a shutdown signal, it answers `503` while the app serves on,
 * before it stops taking connections (default 0).
 */
export function lifecycleOptions(
  env: NodeJS.ProcessEnv = process.env,
): McpServerLifecycleOptions {
  return {
    readinessPath: '/ready',
    shutdownDrainDelay:
      env.SHUTDOWN_DRAIN_DELAY === undefined
        ? undefined
        : Number(env.SHUTDOWN_DRAIN_DELAY),
  };
}

/**
 * The sample's MCP options, from its environment:
 * - `MCP_TOOL_LIST_PER_CALLER=true`: `tools/list` shows each caller the
 *   tools its permissions reach;
 * - `MCP_AUDIT=true`: an audit event of every tool call, one JSON line on
 *   the app's log;
 * - `OAUTH_ISSUER=<issuer URL>`: OAuth mode, the endpoint a protected
 *   resource of that authorization server, whose JWT access tokens the
 *   library's verifier checks (`ApiKeyGuard` hands it `Bearer` tokens);
 *   `MCP_RESOURCE` is its public URL (default
 *   `http://127.0.0.1:<PORT>/mcp`), `MCP_STEP_UP=true` turns on step-up,
 *   `MCP_REQUIRE_TOKEN=forPermission` lets anonymous callers list tools,
 *   `OAUTH_VERIFIER=passport` checks tokens with the app's own passport-jwt
 *   strategy instead of the library's verifier.
 */
export function mcpOptions(
  env: NodeJS.ProcessEnv = process.env,
): McpModuleOptions {
  const options: McpModuleOptions = {
    ...MCP_SERVER,
    authGuard: ApiKeyGuard,
    // The sample's tenancy: a call's X-Tenant-Id, checked for its form.
    tenantOf: tenantOfHeaders,
    toolListPerCaller: env.MCP_TOOL_LIST_PER_CALLER === 'true',
    ...(env.MCP_AUDIT === 'true' ? { telemetry: { audit: true } } : {}),
  };
  const issuer = env.OAUTH_ISSUER;
  if (!issuer) {
    return options;
  }
  return {
    ...options,
    oauth: {
      resource:
        env.MCP_RESOURCE ?? `http://127.0.0.1:${env.PORT ?? '3000'}/mcp`,
      authorizationServers: [issuer],
      resourceName: 'Order desk',
      stepUp: env.MCP_STEP_UP === 'true',
      requireToken:
        env.MCP_REQUIRE_TOKEN === 'forPermission' ? 'forPermission' : 'always',
      // The library's verifier, unless the app's own checks the tokens.
      ...(env.OAUTH_VERIFIER === 'passport' ? {} : { jwt: {} }),
    },
  };
}
