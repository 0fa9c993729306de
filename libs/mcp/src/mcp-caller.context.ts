import type { CancelSignal } from '@nestops/operations';

/**
 * What a transport knows about the caller of one message.
 *
 * @publicApi
 */
export interface McpCallerContext {
  /** The carrier's headers: credentials, locale, tenant, correlation id. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The caller's language preference where the carrier has no
   * `Accept-Language` header (stdio's `--locale`).
   */
  readonly locale?: string;
  /** Per-call limit in milliseconds for this caller, instead of the `timeout` option. */
  readonly timeout?: number;
  /**
   * Aborted when the caller cancels the call (a 2026-07-28 HTTP client
   * closing its response stream): the call is given up and rolled back.
   */
  readonly signal?: CancelSignal;
}
