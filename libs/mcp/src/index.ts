/**
 * `@nestops/mcp`: publish a Nest app's `@Operation()` methods as Model
 * Context Protocol tools over Streamable HTTP (`McpModule`) and on stdio;
 * its command line is `runCli` of `@nestops/mcp/cli`.
 *
 * @packageDocumentation
 */

export { McpModule } from './mcp.module.js';
export { McpServerLifecycleModule } from './lifecycle/mcp-server-lifecycle.module.js';
export type { McpServerLifecycleOptions } from './lifecycle/lifecycle-options.js';
export type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
export type {
  McpAuditEvent,
  McpAuditSink,
  McpTelemetryOptions,
} from './interfaces/mcp-telemetry-options.interface.js';
export type { McpOAuthOptions } from './interfaces/mcp-oauth-options.interface.js';
export type {
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
} from './resources/mcp-resource.interface.js';
export { McpJwtGuard } from './auth/mcp-jwt.guard.js';
export type { McpTokenPrincipal } from './auth/mcp-jwt.guard.js';
