import type { InvocationContext } from '@nestops/operations';
import { callHooksOf } from '@nestops/operations/internal';
import { CallStream, type McpCall } from './mcp-call.js';

/**
 * The MCP call an operation's invocation came from (found by the response
 * stream the call gave it); undefined for a call that did not come over MCP.
 */
export function mcpCallOf(context: InvocationContext): McpCall | undefined {
  const stream = callHooksOf(context)?.responseStream;
  return stream instanceof CallStream ? stream.call : undefined;
}
