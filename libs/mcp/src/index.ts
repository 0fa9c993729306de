/**
 * `@nestops/mcp`: publish a Nest app's `@Operation()` methods as Model
 * Context Protocol tools over Streamable HTTP (`McpModule`), on stdio and
 * as a command line (`runCli`).
 *
 * @packageDocumentation
 */

export { McpModule } from './mcp.module.js';
export { McpServerLifecycleModule } from './lifecycle/mcp-server-lifecycle.module.js';
export type { McpServerLifecycleOptions } from './lifecycle/lifecycle-options.js';
export { MCP_MODULE_OPTIONS } from './mcp-module-definition.js';
export type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
export type {
  McpAuditEvent,
  McpAuditSink,
  McpTelemetryOptions,
} from './interfaces/mcp-telemetry-options.interface.js';
export type {
  McpJwtOptions,
  McpOAuthOptions,
  McpTokenRequirement,
} from './interfaces/mcp-oauth-options.interface.js';
export { McpJwtGuard } from './oauth/mcp-jwt.guard.js';
export type { McpTokenPrincipal } from './oauth/mcp-jwt.guard.js';
export type {
  McpTextContent,
  McpTool,
  McpToolAnnotations,
  McpToolResult,
} from './tools/mcp-tool.interface.js';
export { McpToolCatalogue } from './tools/mcp-tool.catalogue.js';
export { McpProtocol } from './protocol/mcp-protocol.js';
export type { CallerLogging, McpCallerContext } from './mcp-caller.context.js';
export type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
} from './json-rpc/json-rpc.types.js';
export {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './mcp.constants.js';
export { runCli } from './cli/mcp-cli.js';
export { CLI_EXIT } from './cli/cli-exit.js';
export type {
  McpAppLoader,
  McpCliOptions,
  McpCliServerOptions,
} from './cli/mcp-cli-options.interface.js';
export type { AppSetup } from '@nestops/operations';
