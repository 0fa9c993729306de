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
