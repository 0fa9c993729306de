import type { InvocationResult } from '@nestops/operations';
import type {
  InvocationRecord,
  ResponseStream,
} from '@nestops/operations/internal';
import type { McpRequest } from './mcp-message.js';
import type { CallerLogging } from './mcp-caller.context.js';
import { CallCancel } from './call-cancel.js';
import type { McpTransport } from './mcp-transport.js';
import {
  McpServerRequestError,
  SERVER_REQUEST_TIMEOUT_MS,
} from './server-requests.js';

/** What a call reads of its session. */
export interface CallSession {
  /** The version an answered `initialize` agreed (its handler sets it). */
  protocolVersion: string | undefined;
  /** The client's `logging/setLevel`. */
  readonly logging: CallerLogging;
  /** What the client's `initialize` declared it can answer; undefined: not known here. */
  clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** Sends the client a request for `owner` (see `ServerRequests.send`). */
  sendRequest(
    owner: object,
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    write: (message: object) => void,
    timeoutMs?: number,
  ): Promise<unknown>;
  /** Gives up the requests `owner` sent. */
  dropRequests(owner: object, why: string): void;
}

/** What observes a call for the app's telemetry and audit trail. */
export interface CallObserver {
  /** Told once, when the operation is answered, what the invoker records. */
  readonly observe: (record: InvocationRecord) => void;
  /** What the call's operation answered. */
  answered(result: InvocationResult): void;
}

/** Options of one request the server sends the client. */
export interface ServerRequestOptions {
  /**
   * How long the client has to answer, in milliseconds (default 60 s); never
   * past the call's deadline.
   */
  readonly timeoutMs?: number;
}

/** A call's stream ahead of its answer: the transport's, until the call ends. */
export class CallStream implements ResponseStream {
  constructor(
    /** The call whose stream it is. */
    readonly call: McpCall,
  ) {}

  get open(): boolean {
    return this.call.isOpen();
  }

  send(message: Readonly<Record<string, unknown>>): void {
    if (this.call.isOpen()) {
      this.call.transport.stream.send(message);
    }
  }
}

/**
 * One request being served, and everything its handler can use: the
 * message, the transport and session it came in on, its cancellation, the
 * stream ahead of its answer (open until it is answered or cancelled), the
 * log level its messages follow, and requests to the client
 * (`sendRequest`). Made by the protocol layer for every request.
 */
export class McpCall {
  private readonly cancellation = new CallCancel();
  private ended = false;
  /** The stream ahead of the answer: the transport's, until the call ends. */
  readonly stream: ResponseStream;
  /** What observes the call, when the app's telemetry or audit trail does. */
  observer: CallObserver | undefined;
  /** When the call is given up (`Date.now()` ms), if it has a time limit. */
  readonly deadline: number | undefined;

  constructor(
    /** The request being served. */
    readonly request: McpRequest,
    /** What it came in on. */
    readonly transport: McpTransport,
    /** The session it belongs to. */
    readonly session: CallSession,
    /** The call's time limit in milliseconds, if any. */
    timeout?: number,
  ) {
    this.stream = new CallStream(this);
    this.deadline = timeout === undefined ? undefined : Date.now() + timeout;
  }

  /**
   * Aborted when the client cancels the call: what the invoker watches
   * (one listener, far cheaper than an `AbortController` per call).
   */
  get signal(): CallCancel {
    return this.cancellation;
  }

  /** Whether the client cancelled the call. */
  get cancelled(): boolean {
    return this.cancellation.aborted;
  }

  /**
   * The protocol version the call is served under: the one a 2026 request
   * names, else the transport's, else the one the session agreed.
   */
  get protocolVersion(): string | undefined {
    return (
      this.request.bodyVersion ??
      this.transport.protocolVersion ??
      this.session.protocolVersion
    );
  }

  /**
   * The log level the client asked for: a 2026 request's own, a 2025
   * session's `logging/setLevel`; undefined: none.
   */
  get logLevel(): string | undefined {
    return this.request.revision === '2026'
      ? this.request.meta?.logLevel
      : this.session.logging.level;
  }

  /**
   * Sends the client a request on the call's stream and resolves with its
   * result. Rejects with `McpServerRequestError` when the stream cannot
   * carry it (2026-07-28 asks otherwise; a POST that does not accept
   * `text/event-stream`), on the client's error answer, after the timeout
   * (at the latest the call's deadline), and when the call ends first (its
   * late answer is then ignored).
   */
  sendRequest(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    options: ServerRequestOptions = {},
  ): Promise<unknown> {
    if (this.request.revision === '2026') {
      return Promise.reject(
        new McpServerRequestError(
          `${method}: a ${this.protocolVersion} call cannot send the client a request on its stream`,
        ),
      );
    }
    if (!this.isOpen()) {
      return Promise.reject(
        new McpServerRequestError(
          `${method}: the call has no open stream to its client`,
        ),
      );
    }
    const asked = options.timeoutMs ?? SERVER_REQUEST_TIMEOUT_MS;
    const left =
      this.deadline === undefined ? asked : this.deadline - Date.now();
    if (left <= 0) {
      return Promise.reject(
        new McpServerRequestError(`${method}: the call's deadline has passed`),
      );
    }
    return this.session.sendRequest(
      this,
      method,
      params,
      (message) =>
        this.transport.stream.send(message as Record<string, unknown>),
      Math.min(asked, left),
    );
  }

  /** Cancels the call (the client asked to): its pending requests are dropped. */
  cancel(): void {
    if (this.cancellation.cancel()) {
      this.session.dropRequests(this, 'the call was cancelled');
    }
  }

  /** Ends the call once it is answered: its stream closes, its pending requests are dropped. */
  end(): void {
    this.ended = true;
    this.session.dropRequests(
      this,
      'the call ended before the client answered',
    );
  }

  /** @internal Whether the call's stream reaches its client. */
  isOpen(): boolean {
    return (
      !this.ended && !this.cancellation.aborted && this.transport.stream.open
    );
  }
}
