import type { IncomingMessage, ServerResponse } from 'node:http';

/** The injection token of the app's server lifecycle, when it imports one. */
export const MCP_SERVING = Symbol('MCP_SERVING');

/**
 * What the MCP endpoint asks of `McpServerLifecycleModule`, when the app
 * imports it: whether the app serves, and each request's turn on its
 * connection, and the drain (which McpModule's `onModuleDestroy` starts too,
 * should Nest run it first).
 */
export interface McpServing {
  /** From the end of the whole app's bootstrap until its connections are drained. */
  isReady(): boolean;
  /**
   * Waits until the request's answer can go straight onto its connection
   * (pipelining back-pressure); false when the connection closed first.
   */
  turn(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Starts the drain, if not started yet; resolves once it is over. */
  leave(): Promise<void>;
}
