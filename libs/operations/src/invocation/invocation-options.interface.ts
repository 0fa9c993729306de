import type { OperationFailure } from '../errors/operation-failure.js';
import type { InputLimits } from './input-limits.js';
import type { Carrier } from '../interfaces/operation-options.interface.js';

/**
 * How a carrier asks for one call of an operation.
 *
 * @publicApi
 */
export interface InvocationOptions {
  /** The carrier the call comes in on; the operation must be exposed on it. */
  readonly carrier: Carrier;
  /** Tool name, command or route, recorded as the call's source. */
  readonly target: string;
  /** The carrier's headers (`authorization`, `accept-language`, `x-tenant-id`, `x-correlation-id`, ...). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The operation's input, as parsed JSON. */
  readonly input: unknown;
  /**
   * The caller's language preference: an `Accept-Language` value or one tag
   * (a `--locale` option). Default: the `accept-language` header. The call
   * runs in the application language that serves it best.
   */
  readonly locale?: string;
  /** Per-call limit in milliseconds. */
  readonly timeout?: number;
  /** How much input the call may carry. Default: `INPUT_LIMITS`. */
  readonly inputLimits?: InputLimits;
}

/**
 * The outcome of one call: the serialised result, or why it failed.
 *
 * @publicApi
 */
export type InvocationResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly failure: OperationFailure };
