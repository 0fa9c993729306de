/**
 * `@nestops/mcp/internal`: the MCP carrier's plumbing, for the library's
 * own tests and tools. @internal by contract: no API report, no
 * compatibility promise between versions; an app imports `@nestops/mcp`,
 * `@nestops/mcp/testing` or `@nestops/mcp/cli` instead.
 *
 * @packageDocumentation
 */

// The declaration build (`stripInternal`) drops the statement that the
// comment above leads, since it says @internal: this empty one.
export {};

export { McpProtocol } from '../protocol/mcp-protocol.js';
export { McpCall } from '../protocol/mcp-call.js';
export { mcpCallOf } from '../protocol/mcp-call-of.js';
export { McpServerRequestError } from '../protocol/server-requests.js';
export { McpDispatcher } from '../protocol/mcp.dispatcher.js';
export { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
export type {
  CallerLogging,
  McpCallerContext,
} from '../protocol/mcp-caller.context.js';
export { MCP_MODULE_OPTIONS } from '../options/mcp-module-definition.js';
export {
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../mcp.constants.js';
export type {
  JsonRpcErrorObject,
  JsonRpcId,
} from '../json-rpc/json-rpc.types.js';
