/**
 * `@nestops/mcp/testing`: talk MCP to an app in its tests, in-process,
 * through the same dispatcher and pipeline as the HTTP endpoint
 * (`McpTestClient`). The app is booted with `createTestApplication` of
 * `@nestops/operations/testing`.
 *
 * @packageDocumentation
 */

export { McpTestClient } from './mcp-test-client.js';
export { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
export type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
export type { McpTool, McpToolResult } from '../tools/mcp-tool.interface.js';
export type {
  McpResource,
  McpReadContents,
  McpResourceTemplate,
} from '../resources/mcp-resource.interface.js';
