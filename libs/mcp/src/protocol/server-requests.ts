import { randomBytes } from 'node:crypto';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';

/** How long the client has to answer a request the server sent it. */
export const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/** The most requests the server waits on at once in one session. */
export const MAX_PENDING_SERVER_REQUESTS = 16;

/** The instance part of a request id: 16 hex digits, then `-` and a count. */
const REQUEST_ID = /^([0-9a-f]{16})-[1-9][0-9]{0,15}$/;

/**
 * The instance that sent the request `id` answers (its part of the id),
 * or undefined when `id` is no id this library gives.
 */
export function instanceOfId(id: JsonRpcId): string | undefined {
  return typeof id === 'string' ? REQUEST_ID.exec(id)?.[1] : undefined;
}

/**
 * Why a request the server sent the client got no result: the client
 * answered with an error (`code`, `message`), it did not answer in time,
 * the call that asked ended, or the request could not be sent.
 */
export class McpServerRequestError extends Error {
  constructor(
    message: string,
    /** The client's JSON-RPC error code, when it answered with an error. */
    readonly code?: number,
    /** The client's `error.data`, when it answered with an error. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpServerRequestError';
  }
}

/** Who sent a request: its session, that session's HTTP caller, the call. */
export interface RequestSender {
  readonly session: object;
  /** The 2025 HTTP caller of the session (`McpTransport.peer`); none on stdio. */
  readonly peer?: string;
  /** The call that sent it: its end drops the request. */
  readonly owner: object;
}

/** A client's answer: its result, or its JSON-RPC error. */
export interface ClientAnswer {
  readonly id: JsonRpcId;
  readonly result?: unknown;
  readonly error?: unknown;
}

/**
 * What an answer did: settled its request, named a request another sender
 * awaits (`foreign`, ignored), or none awaited here (`unknown`).
 */
export type AnswerOutcome = 'settled' | 'foreign' | 'unknown';

interface Pending extends RequestSender {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: McpServerRequestError) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The requests this instance sent its clients during calls and awaits
 * answers to: ids unique across instances (a random instance part and a
 * count), at most `MAX_PENDING_SERVER_REQUESTS` per session, each for at
 * most its timeout; ended by the sender's answer, the timeout or the end
 * of the call that sent it (`dropAll(owner)`), after which a late answer is
 * unknown.
 */
export class ServerRequests {
  /** This instance's part of every id it gives. */
  readonly instance = randomBytes(8).toString('hex');
  private last = 0;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private readonly perSession = new Map<object, number>();

  /** How many answers `session` is awaited on. */
  pendingIn(session: object): number {
    return this.perSession.get(session) ?? 0;
  }

  /**
   * Sends a request through `write` with a new id and resolves with the
   * client's result; rejects with `McpServerRequestError` on an error
   * answer, a timeout, too many requests awaited, or the end of the owner.
   */
  send(
    sender: RequestSender,
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    write: (message: object) => void,
    timeoutMs = SERVER_REQUEST_TIMEOUT_MS,
  ): Promise<unknown> {
    if (this.pendingIn(sender.session) >= MAX_PENDING_SERVER_REQUESTS) {
      return Promise.reject(
        new McpServerRequestError(
          `${method}: already waiting on ${MAX_PENDING_SERVER_REQUESTS} answers from the client`,
        ),
      );
    }
    const id = `${this.instance}-${++this.last}`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(id);
        reject(
          new McpServerRequestError(
            `${method}: the client did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { ...sender, method, resolve, reject, timer });
      this.perSession.set(sender.session, this.pendingIn(sender.session) + 1);
      write({
        jsonrpc: '2.0',
        id,
        method,
        ...(params === undefined ? {} : { params }),
      });
    });
  }

  /**
   * Settles the request `answer` answers when `answeredBy` its sender
   * (the session the answer came in on; over Redis, the caller it names).
   */
  settle(
    answer: ClientAnswer,
    answeredBy: (sender: RequestSender) => boolean,
  ): AnswerOutcome {
    const pending = this.pending.get(answer.id);
    if (!pending) {
      return 'unknown';
    }
    if (!answeredBy(pending)) {
      return 'foreign';
    }
    this.forget(answer.id);
    if (answer.error === undefined) {
      pending.resolve(answer.result);
      return 'settled';
    }
    const { code, message, data } = answer.error as {
      code?: unknown;
      message?: unknown;
      data?: unknown;
    };
    pending.reject(
      new McpServerRequestError(
        `${pending.method}: the client answered with an error: ${typeof message === 'string' ? message : 'no message'}`,
        typeof code === 'number' ? code : undefined,
        data,
      ),
    );
    return 'settled';
  }

  /** Gives up every request `owner` sent in `session`; their late answers are unknown. */
  dropAll(session: object, owner: object, why: string): void {
    if (this.pendingIn(session) === 0) {
      return;
    }
    for (const [id, pending] of this.pending) {
      if (pending.owner === owner) {
        this.forget(id);
        pending.reject(new McpServerRequestError(`${pending.method}: ${why}`));
      }
    }
  }

  private forget(id: JsonRpcId): void {
    const pending = this.pending.get(id);
    if (!pending) {
      return;
    }
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const left = this.pendingIn(pending.session) - 1;
    if (left > 0) {
      this.perSession.set(pending.session, left);
    } else {
      this.perSession.delete(pending.session);
    }
  }
}
