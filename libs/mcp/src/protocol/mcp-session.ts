import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import type { CallerLogging } from './mcp-caller.context.js';
import { type CallSession, McpCall } from './mcp-call.js';
import type { McpClientResponse, McpRequest } from './mcp-message.js';
import type { McpTransport } from './mcp-transport.js';
import { type AnswerOutcome, ServerRequests } from './server-requests.js';

/**
 * What the protocol knows of one client between its messages: the
 * revision `initialize` agreed, its log level, its calls under way (what
 * a `notifications/cancelled` cancels) and the requests the server sent it
 * that await an answer. A stdio connection is one session; a 2025 HTTP
 * caller's session lives on this instance while it has calls under way or
 * answers awaited (see `McpProtocol`); a 2026 request has one of its own.
 */
export class McpSession implements CallSession {
  /** The version an answered `initialize` agreed; undefined before. */
  protocolVersion: string | undefined;
  /** What the client's `initialize` declared it can answer; undefined before. */
  clientCapabilities: Readonly<Record<string, unknown>> | undefined;
  private readonly calls = new Map<JsonRpcId, McpCall>();

  constructor(
    /** Where the client's `logging/setLevel` is kept. */
    readonly logging: CallerLogging = { level: undefined },
    /** The instance's requests to clients, this session's among them. */
    private readonly requests = new ServerRequests(),
    /** The 2025 HTTP caller whose session it is (`McpTransport.peer`). */
    readonly peer?: string,
  ) {}

  /** Whether nothing is under way or awaited: the session may be let go. */
  get idle(): boolean {
    return this.calls.size === 0 && this.requests.pendingIn(this) === 0;
  }

  /**
   * A call for `request`, under way until `end` (within `timeout` ms, if
   * any); cancellable by its id unless a call with the same id is already
   * under way (the first keeps the id).
   */
  begin(
    request: McpRequest,
    transport: McpTransport,
    timeout?: number,
  ): McpCall {
    const call = new McpCall(request, transport, this, timeout);
    if (!this.calls.has(request.id)) {
      this.calls.set(request.id, call);
    }
    return call;
  }

  /** The call is answered: no longer cancellable, its requests dropped. */
  end(call: McpCall): void {
    call.end();
    if (this.calls.get(call.request.id) === call) {
      this.calls.delete(call.request.id);
    }
  }

  /** Cancels the call under way with `id`, if any. */
  cancel(id: JsonRpcId): void {
    this.calls.get(id)?.cancel();
  }

  /** Cancels every call under way (the transport can no longer answer). */
  cancelAll(): void {
    for (const call of this.calls.values()) {
      call.cancel();
    }
  }

  /**
   * Settles the request a client's response answers if this session sent
   * it; another session's (`foreign`) and unknown ids settle nothing.
   */
  settle(response: McpClientResponse): AnswerOutcome {
    return this.requests.settle(response, (sender) => sender.session === this);
  }

  /** Sends the client a request for `owner`, a call (see `ServerRequests.send`). */
  sendRequest(
    owner: object,
    method: string,
    params: Readonly<Record<string, unknown>> | undefined,
    write: (message: object) => void,
    timeoutMs?: number,
  ): Promise<unknown> {
    return this.requests.send(
      { session: this, peer: this.peer, owner },
      method,
      params,
      write,
      timeoutMs,
    );
  }

  /** Gives up the requests `owner` sent; their late answers are ignored. */
  dropRequests(owner: object, why: string): void {
    this.requests.dropAll(this, owner, why);
  }
}

/** The capabilities an `initialize`'s `params` declare (none: `{}`), for what the server may ask. */
export function declaredCapabilities(
  params: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> {
  const capabilities = params?.capabilities;
  return typeof capabilities === 'object' &&
    capabilities !== null &&
    !Array.isArray(capabilities)
    ? (capabilities as Record<string, unknown>)
    : {};
}
