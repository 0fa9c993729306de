import type { McpCallerContext } from './mcp-caller.context.js';
import { CLOSED_STREAM } from './closed-stream.js';
import type { McpCall } from './mcp-call.js';
import type { McpRequest } from './mcp-message.js';
import { McpSession } from './mcp-session.js';

/** For specs: `request` as a call from `caller`, in-process, in `session`. */
export function inProcessCall(
  request: McpRequest,
  caller: McpCallerContext,
  session = new McpSession(),
): McpCall {
  return session.begin(request, {
    kind: 'in-process',
    caller,
    stream: CLOSED_STREAM,
  });
}
