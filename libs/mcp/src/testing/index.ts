export { McpTestClient } from './mcp-test-client';
export { McpProtocolError } from '../json-rpc/mcp-protocol.error';
export type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
} from '../json-rpc/json-rpc.types';
export type { TestHeaders } from '@nestops/operations/testing';
