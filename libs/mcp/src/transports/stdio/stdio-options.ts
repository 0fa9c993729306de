import type { Readable } from 'node:stream';
import type { McpCallerContext } from '../../protocol/mcp-caller.context.js';
import type { McpGreetingSettings } from '../../protocol/greeting.js';
import type { McpProtocol } from '../../protocol/mcp-protocol.js';
import type { McpStdioOutput } from './stdio-output.js';

/** What serves a session's messages. */
export interface McpStdioServer {
  readonly protocol: McpProtocol;
  /** The context of every call of the session (credentials, locale, timeout). */
  readonly caller: McpCallerContext;
  /** The longest line, in bytes; a longer one is refused and skipped. */
  readonly maxMessageSize: number;
}

/** Where a stdio session reads and writes. */
export interface McpStdioStreams {
  /** One JSON-RPC message per line, decoded as UTF-8. */
  readonly input: Readable;
  /** Protocol messages only, one per line, pure ASCII. */
  readonly output: McpStdioOutput;
  /**
   * The most calls under way at once: at that many, no further line is
   * taken (reading pauses) until one finishes. Default 64.
   */
  readonly maxInFlight?: number;
}

/** How a stdio session reads, writes and calls. */
export interface McpStdioSessionOptions
  extends McpStdioStreams, Omit<McpStdioServer, 'protocol'> {}

/** How a session that starts before its server reads, writes and greets. */
export interface McpStdioStartOptions extends McpStdioStreams {
  /**
   * What `initialize` and `server/discover` are answered with while the
   * server loads; without it, every message waits for the server.
   */
  readonly greeting?: McpGreetingSettings;
}
