export { McpModule } from './mcp.module';
export { MCP_MODULE_OPTIONS } from './mcp-module-definition';
export type { McpModuleOptions } from './interfaces/mcp-module-options.interface';
export type {
  McpTextContent,
  McpTool,
  McpToolAnnotations,
  McpToolResult,
} from './tools/mcp-tool.interface';
export { McpToolCatalogue } from './tools/mcp-tool.catalogue';
export { McpDispatcher } from './mcp.dispatcher';
export type { McpCallerContext } from './mcp.dispatcher';
export {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './mcp.constants';
export { runCli, CLI_EXIT } from './cli/mcp-cli';
export type { McpCliOptions } from './cli/mcp-cli';
