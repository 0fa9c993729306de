import type { OperationFailure } from '../../errors/operation-failure.js';
import type { Carrier } from '../../interfaces/operation-options.interface.js';
import type { CallReporter } from '../context/call-reporter.js';
import type { ResponseStream } from '../context/response-stream.js';

/**
 * What tells a call that its caller cancelled it: an `AbortSignal`, or any
 * object with its `aborted`, `addEventListener('abort')` and
 * `removeEventListener('abort')` (a carrier's own, cheaper than an
 * `AbortController` per call).
 *
 * @publicApi
 */
export interface CancelSignal {
  /** Whether the caller has cancelled the call. */
  readonly aborted: boolean;
  /** Has `listener` called when the caller cancels. */
  addEventListener(type: 'abort', listener: () => void): void;
  /** Stops calling `listener`. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * How a carrier asks for one call of an operation. Everything else a call
 * needs (the deadline where the carrier sets none, the input limits) comes
 * from the app's `InvocationDefaults`, the same for every carrier.
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
   * The caller's language preference given apart from the headers (a
   * `--locale` option): an `Accept-Language` value or one tag. Default: the
   * whole `accept-language` header. The call (its context and its failure
   * text) runs in the one application language that serves it best.
   */
  readonly locale?: string;
  /**
   * The carrier's own per-call limit in milliseconds (a `--timeout`
   * option). Default: the `timeout` of the app's `InvocationDefaults`
   * (`McpModule`'s `timeout`), else none.
   */
  readonly timeout?: number;
  /**
   * Where the call may send messages before its answer (the carrier's SSE
   * or stdio stream). Default: a closed stream, which drops them.
   */
  readonly responseStream?: ResponseStream;
  /**
   * What delivers the call's `reportProgress()` and `log()` to its caller.
   * Default: none (progress is dropped, log messages go to the app's logger).
   */
  readonly reporter?: CallReporter;
  /**
   * Aborted when the caller cancels the call (a carrier's cancellation
   * message, a closed stream): the call is given up as at its deadline
   * (its signal aborted, its unit of work rolled back) and answered
   * `INTERNAL_CANCELLED_001`, unless its commit has begun.
   */
  readonly signal?: CancelSignal;
}

/**
 * The outcome of one call, as every carrier sends it: the result as a JSON
 * value and as its JSON text, written once (`json`, which a carrier sends as
 * it is), or the failure and its text `<CODE>: <message>` in the call's
 * language (`text`).
 *
 * @publicApi
 */
export type InvocationResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      /** `value` as JSON text, written when the result was serialised. */
      readonly json: string;
    }
  | {
      readonly ok: false;
      readonly failure: OperationFailure;
      /** `<CODE>: <message>`, in the language the call ran in. */
      readonly text: string;
    };
