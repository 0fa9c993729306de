import {
  JSON_RPC_INTERNAL_ERROR,
  type JsonRpcResponse,
} from '../../json-rpc/json-rpc.types.js';
import {
  greetingAnswer,
  type McpGreetingSettings,
} from '../../protocol/greeting.js';
import { classifyMessage } from '../../protocol/mcp-message.js';
import {
  declaredCapabilities,
  type McpSession,
} from '../../protocol/mcp-session.js';

// What a stdio session answers before its server has loaded.

/**
 * The answer to `message` when it is a greeting (`initialize`,
 * `server/discover`), as the server would write it; an `initialize`
 * agrees its version and the client's capabilities in `session`. Undefined for any other message.
 */
export function earlyGreeting(
  message: unknown,
  greeting: McpGreetingSettings,
  session: McpSession,
): JsonRpcResponse | undefined {
  const classified = classifyMessage(message);
  const answer = greetingAnswer(classified, greeting);
  const agreed = (answer as { result?: { protocolVersion?: string } })?.result
    ?.protocolVersion;
  if (agreed !== undefined) {
    session.protocolVersion = agreed;
    session.clientCapabilities = declaredCapabilities(
      classified.kind === 'request' ? classified.params : undefined,
    );
  }
  return answer;
}

/**
 * The answer a message that waited for the server gets when the server
 * failed to load: a request `-32603` naming why, a refused message its
 * refusal, a notification none.
 */
export function startFailureAnswer(
  message: unknown,
  error: unknown,
): object | undefined {
  const held = classifyMessage(message);
  if (held.kind === 'refused') {
    return held.error.toResponse(held.id);
  }
  if (held.kind !== 'request') {
    return undefined;
  }
  return {
    jsonrpc: '2.0',
    id: held.id,
    error: {
      code: JSON_RPC_INTERNAL_ERROR,
      message: `The server did not start: ${error instanceof Error ? error.message : String(error)}`,
    },
  };
}
