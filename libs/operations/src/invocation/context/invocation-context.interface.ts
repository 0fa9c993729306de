import type { OperationDefinition } from '../../interfaces/operation-definition.interface.js';
import type { Carrier } from '../../interfaces/operation-options.interface.js';
import type { SerializedResult } from '../output/output-contract.js';
import type { LogLevel } from './call-reporter.js';
import type { ResponseStream } from './response-stream.js';

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
  /** The MCP tool name, CLI command or HTTP route that was called. */
  readonly target: string;
  /** The operation being called. */
  readonly operation: OperationDefinition;
  /** What the app's authentication set as `request.user`; undefined when anonymous. */
  readonly principal: unknown;
  /** From `X-Tenant-Id`; undefined when absent. */
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
   * Messages to the caller before the answer (progress, log messages), on
   * the carrier's stream; `open` says whether they reach anyone.
   */
  readonly responseStream: ResponseStream;
  /**
   * `value` serialised now as the carrier will send it, under the
   * operation's output contract, which throws when the result breaks it
   * (the call then fails with `INTERNAL_ERROR_001`). For an interceptor
   * that must see that failure before the call ends, e.g. a transaction
   * interceptor before it commits: when the call then returns this very
   * `value`, the carrier sends this serialisation, made once.
   */
  serializeResult(value: unknown): SerializedResult;
  /**
   * For a unit of work about to commit the call's writes: marks the call as
   * committing, after which its deadline and cancellation no longer fail it
   * (its answer is what the commit did: success, or the commit's own
   * error). False when the call has already been given up: roll back
   * instead of committing.
   */
  beginCommit(): boolean;
  /**
   * For a unit of work that has run the call's handler inside its
   * transaction: resolves once the call's result is final (past every
   * interceptor and exception filter of the app, serialised under the
   * output contract) with true, to commit, or false when the call failed
   * or was given up, to roll back. The call is answered only once `ended`
   * settles (the commit or rollback is done); a rejection fails the call
   * with its error. So an interceptor registered outside the unit of work
   * that breaks the result leaves nothing committed.
   */
  holdCommit(ended: Promise<unknown>): Promise<boolean>;
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
   * logger writes it (under the operation's id). Never throws.
   */
  log(level: LogLevel, message: string, data?: unknown): void;
}
