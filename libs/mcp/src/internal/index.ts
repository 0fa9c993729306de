/**
 * `@nestops/mcp/internal`: the protocol layer's parts for the library's own
 * packages and tests. Internal by contract: no API report, no semver
 * promise; an app uses the main entry point.
 *
 * @packageDocumentation
 */

export { McpProtocol } from '../protocol/mcp-protocol.js';
export { McpCall, mcpCallOf } from '../protocol/mcp-call.js';
export { McpServerRequestError } from '../protocol/server-requests.js';
