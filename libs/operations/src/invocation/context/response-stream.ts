/**
 * What a call being served can send its caller before its answer: JSON-RPC
 * messages (notifications such as progress or log messages) on the
 * carrier's own response stream: an MCP POST then answered as
 * `text/event-stream`, lines on stdio. A call that sends nothing is answered
 * as if the stream did not exist.
 *
 * ```ts
 * @Operation()
 * async importOrders(input: ImportDto, context: InvocationContext) {
 *   context.responseStream.send({
 *     jsonrpc: '2.0',
 *     method: 'notifications/message',
 *     params: { level: 'info', data: 'import started' },
 *   });
 *   ...
 * }
 * ```
 *
 * @publicApi
 */
export interface ResponseStream {
  /**
   * Whether a message sent now reaches the caller: false where the carrier
   * has no stream (the command line's `invoke`, the test kits), where the
   * caller cannot take one (an HTTP request whose `Accept` does not allow
   * `text/event-stream`), and once the call's answer went.
   */
  readonly open: boolean;
  /**
   * Sends one JSON-RPC message ahead of the call's answer, in the order
   * sent; dropped when the stream is not open.
   */
  send(message: Readonly<Record<string, unknown>>): void;
}

/** The stream of a carrier that has none: closed, it drops what it is sent. */
export const CLOSED_RESPONSE_STREAM: ResponseStream = Object.freeze({
  open: false,
  send: () => undefined,
});
