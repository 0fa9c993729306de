import { OperationException } from '@nestops/operations';
import type {
  CallAsker,
  ClientCapability,
  ClientQuestion,
} from '@nestops/operations/internal';
import { JSON_RPC_METHOD_NOT_FOUND } from '../json-rpc/json-rpc.types.js';
import type { McpCall } from '../protocol/mcp-call.js';
import { McpServerRequestError } from '../protocol/server-requests.js';
import { canAnswer } from './client-capabilities.js';

/**
 * A 2025 call's questions, each a request to the client on the call's
 * stream (an HTTP POST's SSE answer, a stdio line) whose answer comes back
 * as the client's response. What the client can answer is what its
 * `initialize` declared where the session knows it (stdio); over HTTP it
 * is not known, and a client that cannot answer says so.
 */
export class StreamAsker implements CallAsker {
  constructor(private readonly call: McpCall) {}

  can(capability: ClientCapability): boolean | undefined {
    if (!this.call.isOpen()) {
      return false;
    }
    const declared = this.call.session.clientCapabilities;
    return declared === undefined ? undefined : canAnswer(declared, capability);
  }

  async ask(question: ClientQuestion): Promise<unknown> {
    try {
      return await this.call.sendRequest(question.method, question.params);
    } catch (error) {
      if (!(error instanceof McpServerRequestError)) {
        throw error;
      }
      throw error.code === JSON_RPC_METHOD_NOT_FOUND
        ? new OperationException('BUSINESS_CLIENT_001', {
            capability: question.capability,
          })
        : new OperationException('BUSINESS_CLIENT_002', {
            question: question.key,
            detail: error.message,
          });
    }
  }
}
