import type { CarrierRequest } from '@nestops/operations/internal';

/**
 * What a transport knows about the caller of one message.
 *
 * @publicApi
 */
export interface McpCallerContext {
  /** The carrier's headers: credentials, locale, correlation id, the app's own. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The caller's language preference where the carrier has no
   * `Accept-Language` header (stdio's `--locale`).
   */
  readonly locale?: string;
  /**
   * The transport's own request (over HTTP, the Express or Fastify request
   * of the POST): the caller's address and the endpoint, as each call's request
   * object shows them (`ip`, `ips`, `hostname`, `protocol`, `method`,
   * `url`, `path`). None on stdio.
   */
  readonly request?: CarrierRequest;
  /**
   * Who the endpoint's `authGuard` authenticated (the `request.user` it
   * set on the transport's request): whose permissions `tools/list`
   * follows under `toolListPerCaller`. Undefined: anonymous.
   */
  readonly principal?: unknown;
  /** Per-call limit in milliseconds for this caller, instead of the `timeout` option. */
  readonly timeout?: number;
}

/**
 * The log level a caller asked for with `logging/setLevel`: its calls'
 * log messages at or above it are sent to it as `notifications/message`.
 *
 * @publicApi
 */
export interface CallerLogging {
  /** One of the MCP log levels; undefined until the caller sets one. */
  level: string | undefined;
}
