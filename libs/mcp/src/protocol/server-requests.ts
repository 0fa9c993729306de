import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import type { McpClientResponse } from './mcp-message.js';

/** How long the client has to answer a request the server sent it. */
export const SERVER_REQUEST_TIMEOUT_MS = 60_000;

/** The most requests the server waits on at once in one session. */
export const MAX_PENDING_SERVER_REQUESTS = 16;

/**
 * The last id given to a request the server sent: one count for every
 * session, so an answer that comes late never matches a later request.
 */
let lastId = 0;

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

interface Pending {
  readonly method: string;
  readonly owner: object;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: McpServerRequestError) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The requests a session sends its client during calls: their ids, the
 * answers awaited (at most `MAX_PENDING_SERVER_REQUESTS`, each for at most
 * its timeout), and what ends them: the client's result or error, the
 * timeout, or the end of the call that sent them (`dropAll(owner)`), after
 * which a late answer is ignored.
 */
export class ServerRequests {
  private readonly pending = new Map<JsonRpcId, Pending>();

  /** How many answers are awaited. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Sends a request through `send` with a new id and resolves with the
   * client's result; rejects with `McpServerRequestError` on an error
   * answer, a timeout, too many requests awaited, or the end of `owner`.
   */
  send(
    owner: object,
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    write: (message: object) => void,
    timeoutMs = SERVER_REQUEST_TIMEOUT_MS,
  ): Promise<unknown> {
    if (this.pending.size >= MAX_PENDING_SERVER_REQUESTS) {
      return Promise.reject(
        new McpServerRequestError(
          `${method}: already waiting on ${MAX_PENDING_SERVER_REQUESTS} answers from the client`,
        ),
      );
    }
    const id = ++lastId;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new McpServerRequestError(
            `${method}: the client did not answer within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { method, owner, resolve, reject, timer });
      write({
        jsonrpc: '2.0',
        id,
        method,
        ...(params === undefined ? {} : { params }),
      });
    });
  }

  /** Settles the request `response` answers; false when none awaits it. */
  settle(response: McpClientResponse): boolean {
    const pending = this.pending.get(response.id);
    if (!pending) {
      return false;
    }
    this.pending.delete(response.id);
    clearTimeout(pending.timer);
    if (response.error === undefined) {
      pending.resolve(response.result);
      return true;
    }
    const { code, message, data } = response.error as {
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
    return true;
  }

  /** Gives up every request `owner` sent; their late answers are ignored. */
  dropAll(owner: object, why: string): void {
    for (const [id, pending] of this.pending) {
      if (pending.owner === owner) {
        this.pending.delete(id);
        clearTimeout(pending.timer);
        pending.reject(new McpServerRequestError(`${pending.method}: ${why}`));
      }
    }
  }
}
