import type { OperationDefinition } from '../../interfaces/operation-definition.interface.js';
import type { Carrier } from '../../interfaces/operation-options.interface.js';

/**
 * Everything known about one call of an operation. Handlers receive it as
 * their second argument; guards and interceptors read it with
 * `getInvocationContext(executionContext)`.
 *
 * It is an interface on purpose: a parameter typed with it reflects as
 * `Object`, so validation pipes leave it alone.
 *
 * @publicApi
 */
export interface InvocationContext {
  /** The carrier the call came in on. */
  readonly carrier: Carrier;
  /** The MCP tool name or CLI command that was called. */
  readonly target: string;
  /** The operation being called. */
  readonly operation: OperationDefinition;
  /** What the app's authentication set as `request.user`; undefined when anonymous. */
  readonly principal: unknown;
  /**
   * The tenant the call runs for, as the app's `tenantOf` reads it from the
   * call's headers (McpModule's `tenantOf` option); undefined: none.
   */
  readonly tenant: string | undefined;
  /** From `X-Correlation-Id`, generated when absent. */
  readonly correlationId: string;
  /** The caller's preferred locale (BCP 47), e.g. `en-US`. */
  readonly locale: string;
  /** When the call is given up, if a timeout applies. */
  readonly deadline: Date | undefined;
  /** Aborted when the call times out. */
  readonly signal: AbortSignal;
  /**
   * Tells the caller how far the call has come: `progress` (increasing; a
   * value not above the last one is dropped) out of `total` when known,
   * with an optional `message`. Over MCP it is a `notifications/progress`
   * to a client that sent a progress token; elsewhere (no token, `invoke`,
   * REST) it does nothing.
   */
  reportProgress(progress: number, total?: number, message?: string): void;
  /**
   * A log message for the caller: over MCP a `notifications/message` when
   * the client asked for `level` or a lower one; otherwise the app's
   * logger writes it (under the operation's id). Never throws. The levels,
   * lowest first, are MCP's: the RFC 5424 syslog severities.
   */
  log(
    level:
      | 'debug'
      | 'info'
      | 'notice'
      | 'warning'
      | 'error'
      | 'critical'
      | 'alert'
      | 'emergency',
    message: string,
    data?: unknown,
  ): void;
}
