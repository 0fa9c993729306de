/**
 * `@nestops/mcp/testing`: talk MCP to an app in its tests, in-process,
 * through the same dispatcher and pipeline as the HTTP endpoint
 * (`McpTestClient`).
 *
 * @packageDocumentation
 */

export { McpTestClient } from './mcp-test-client.js';
export { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
export type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
} from '../json-rpc/json-rpc.types.js';
export { createTestApplication } from '@nestops/operations/testing';
export type {
  TestApplicationSource,
  TestHeaders,
} from '@nestops/operations/testing';
