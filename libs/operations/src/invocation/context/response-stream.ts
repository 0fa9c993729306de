/**
 * What a call being served can send its caller before its answer: JSON-RPC
 * messages (notifications such as progress or log messages) on the
 * carrier's own response stream: an MCP POST then answered as
 * `text/event-stream`, lines on stdio. A call that sends nothing is answered
 * as if the stream did not exist. A carrier gives it in
 * `CallHooks.responseStream`; `callHooksOf(context)` finds it for the call.
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
