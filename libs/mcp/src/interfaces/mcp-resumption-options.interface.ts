/**
 * How a 2025 call's SSE answer can be resumed after its connection drops
 * (`McpModule.forRoot({ resumption })`): every event carries an id, the
 * call runs on without its connection, and a `GET` with `Last-Event-ID`
 * replays what the client missed, then follows the call to its answer.
 * `false` turns it off (events carry no id; a dropped connection loses them).
 *
 * @publicApi
 */
export interface McpResumptionOptions {
  /**
   * How long, in milliseconds, a stream's events are kept once its call
   * has answered (and, with the `redis` option, after its latest event).
   * Default: 300 000 (5 minutes).
   */
  readonly retainMs?: number;
  /**
   * The most events one stream keeps: past it the oldest go, and a resume
   * from before the oldest kept finds nothing. Default: 1 000.
   */
  readonly maxEventsPerStream?: number;
  /**
   * In memory (no `redis` option), the most events kept for all streams
   * together: past it the oldest streams go whole. Default: 10 000.
   */
  readonly maxEvents?: number;
  /**
   * Closes a stream's connection (not the stream) this many milliseconds
   * after it opened, with a `retry` field, so the client polls with `GET`
   * and `Last-Event-ID` (SEP-1699); for proxies that cut long responses.
   * Default: never.
   */
  readonly closeAfterMs?: number;
  /**
   * The `retry` the client is told to wait before it reconnects, in
   * milliseconds, sent when the server closes a connection early.
   * Default: 1 000.
   */
  readonly retryMs?: number;
  /**
   * With the `redis` option, the start of each stream's keys and channel.
   * Default: `nestops:mcp:streams:`.
   */
  readonly keyPrefix?: string;
}
