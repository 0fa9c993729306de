import type { ResponseStream } from '@nestops/operations/internal';
import type { McpCallerContext } from './mcp-caller.context.js';

/** How a transport moves messages. */
export type McpTransportKind = 'http' | 'stdio' | 'in-process';

/**
 * What moves the messages of one exchange (an HTTP POST; a stdio
 * connection; a test client) and what it says of itself. A transport holds
 * no protocol state: the revision agreed, the calls under way, log levels
 * and the requests the server sends the client are the protocol layer's
 * (`McpProtocol`, `McpSession`).
 */
export interface McpTransport {
  readonly kind: McpTransportKind;
  /** Who sends the messages, as far as the transport knows. */
  readonly caller: McpCallerContext;
  /** The protocol version the transport carries itself (HTTP's `MCP-Protocol-Version`). */
  readonly protocolVersion?: string;
  /**
   * Where the messages of a session come from when the transport has no
   * session of its own (a 2025 HTTP caller: its `Authorization`, else its
   * address); undefined where the transport holds one (stdio).
   */
  readonly peer?: string;
  /**
   * Where messages go ahead of an answer (an SSE stream, stdio lines): a
   * request the server sends the client, a call's progress.
   */
  readonly stream: ResponseStream;
}
