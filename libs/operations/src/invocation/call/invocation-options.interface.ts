import type { OperationFailure } from '../../errors/operation-failure.js';
import type { Carrier } from '../../interfaces/operation-contract.js';
import type { CallReporter } from '../context/call-reporter.js';
import type { ResponseStream } from '../context/response-stream.js';
import type { CallAsker } from '../../asking/client-questions.js';

/**
 * What a carrier's own request says of the caller and of the endpoint the
 * call came in on, as the app's HTTP request would say it: the call's
 * request object (what guards and interceptors get from
 * `switchToHttp().getRequest()`) shows each of these under the same name.
 * An Express request is one as it is: its getters answer under the app's
 * `trust proxy` setting. Each is read when something reads it on the
 * call's request, never before.
 *
 * @publicApi
 */
export interface CarrierRequest {
  /** The caller's address (`req.ip`): the connection's peer, or the client a trusted proxy names. */
  readonly ip?: string;
  /** The addresses a trusted proxy forwarded for, client first (`req.ips`). */
  readonly ips?: readonly string[];
  /** The host the caller addressed (`req.hostname`). */
  readonly hostname?: string;
  /** `http` or `https`, as the caller reached the app (`req.protocol`). */
  readonly protocol?: string;
  /** The carrier's request method (`POST` for MCP over HTTP). */
  readonly method?: string;
  /** The endpoint's URL as requested, query included (`req.originalUrl`, else `req.url`). */
  readonly originalUrl?: string;
  /** The same as `originalUrl`, for a request object that has no `originalUrl`. */
  readonly url?: string;
  /** The endpoint's path, without the query (`req.path`). */
  readonly path?: string;
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
  /** The carrier's headers (`authorization`, `accept-language`, `x-correlation-id`, ...). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The carrier's own request, for what the call's request object shows
   * of the caller and the endpoint (`ip`, `ips`, `hostname`, `protocol`,
   * `method`, `url`, `originalUrl`, `path`). Default: none (stdio, the
   * command line): then `ips` is empty and the others are undefined.
   */
  readonly request?: CarrierRequest;
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
   * Aborted when the caller cancels the call (a carrier's cancellation
   * message, a closed stream): the call is given up as at its deadline
   * (its signal aborted, its unit of work rolled back) and answered
   * `INTERNAL_CANCELLED_001`, unless its commit has begun.
   */
  readonly signal?: AbortSignal;
}

/**
 * What a carrier gives one call beyond its `InvocationOptions`: the third
 * argument of `OperationInvoker.invoke`. Each is optional; a call given
 * none has a closed response stream, drops its progress (its log messages
 * go to the app's logger) and is observed by nobody.
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface CallHooks {
  /**
   * The carrier's own cancellation of the call, when it gives no `signal`
   * in the options: aborted when the caller cancels. An `AbortSignal`, or
   * anything with its `aborted` and one `abort` listener (a carrier's own,
   * far cheaper than an `AbortController` made for every call).
   */
  readonly cancel?: CarrierCancel;
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
   * How the call's questions reach its client (`context.elicit()`,
   * `sample()`, `roots()`, confirmations). Default: none (every question
   * fails the call with `BUSINESS_CLIENT_001`; a confirmation with
   * `SECURITY_CONFIRMATION_001`).
   */
  readonly asker?: CallAsker;
  /**
   * Runs the call later, as a task: called once the call is ready to run
   * (its guards passed, its input is valid, any confirmation given), with
   * the answers its questions got so far; the call then stops with
   * `INTERNAL_TASK_001` (its `taskId` the resolved value) and nothing of
   * its method runs now. Default: the call runs now.
   */
  readonly runLater?: () => Promise<string>;
  /**
   * The task the call runs (its context's `taskId`): a unit of work records
   * the call's result under it in the transaction of the call's writes, so
   * a run that finds it there never applies them twice. Default: none.
   */
  readonly taskId?: string;
  /**
   * Told once, when the call is answered, what a carrier's telemetry and
   * audit trail record of it: its correlation id and principal. Default:
   * none (nothing is gathered for it).
   */
  readonly observe?: (record: InvocationRecord) => void;
}

/**
 * What tells a call that its caller cancelled it (see `CallHooks.cancel`).
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface CarrierCancel {
  /** Whether the caller has cancelled the call. */
  readonly aborted: boolean;
  /** Has `listener` called when the caller cancels. */
  addEventListener(type: 'abort', listener: () => void): void;
  /** Stops calling `listener`. */
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * What a carrier learns of one call when it is answered, for its
 * telemetry and audit trail (see `CallHooks.observe`).
 *
 * @publicApi
 */
export interface InvocationRecord {
  /** The operation called. */
  readonly operationId: string;
  /** The call's correlation id (the caller's `X-Correlation-Id`, else the one made for it). */
  readonly correlationId: string;
  /**
   * The tenant it ran for, as the app's `tenantOf` read it from the call's
   * headers; undefined: none, or headers it refused.
   */
  readonly tenant: string | undefined;
  /**
   * Who the app's guards authenticated for the call (its request's
   * `user`, as they left it); undefined: anonymous, or refused before a
   * guard ran.
   */
  readonly principal: unknown;
  /** True when the user confirmed the call before it ran (`@Operation({ confirm })`). */
  readonly confirmed?: true;
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
      /**
       * What the method returned when it wrapped its result for its
       * carrier (an MCP tool result with an image): `value` and `json` are
       * the wrapper's structured part, the rest is the carrier's to read.
       * Undefined for a plain result.
       */
      readonly carried?: object;
    }
  | {
      readonly ok: false;
      readonly failure: OperationFailure;
      /** `<CODE>: <message>`, in the language the call ran in. */
      readonly text: string;
    };
