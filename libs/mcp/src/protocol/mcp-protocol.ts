import { Inject, Injectable } from '@nestjs/common';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { CallerLogLevels } from './caller-log-levels.js';
import type { McpCallerContext } from './mcp-caller.context.js';
import { CLOSED_STREAM } from './closed-stream.js';
import { ClientAnswers } from './client-answers.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import {
  cancelledRequestId,
  classifyMessage,
  type McpMessage,
} from './mcp-message.js';
import { McpSession } from './mcp-session.js';
import type { McpTransport } from './mcp-transport.js';

/**
 * The protocol layer every transport hands its messages to: it keeps, once,
 * what a session means (the revision agreed, the calls under way and their
 * cancellation, log levels, the requests the server sent the client) and
 * has the dispatcher answer each request as an `McpCall`.
 *
 * A transport with a connection of its own (stdio) opens a session for it
 * (`openSession`). A 2025 HTTP caller has no session of its own: its
 * messages share one on this instance by `transport.peer`, kept while it
 * has calls under way or answers awaited (so bounded by the calls under
 * way, each with at most 16 requests awaited), and its log level in a map
 * of at most 10,000 callers. A 2026 request is served on its own. A
 * client's answer goes to `ClientAnswers` (this instance's requests, or,
 * with the `redis` option, another instance's).
 */
@Injectable()
export class McpProtocol {
  /** The 2025 HTTP callers with calls under way or answers awaited. */
  private readonly callers = new Map<string, McpSession>();
  /** The log levels 2025 HTTP callers set, for their later POSTs. */
  private readonly levels = new CallerLogLevels();

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly answers: ClientAnswers,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /**
   * Serves one parsed message in-process, without a transport of its own
   * (the test client's way): what `caller` sends, with no stream ahead of
   * the answer and no session kept between messages.
   */
  dispatch(
    message: unknown,
    caller: McpCallerContext,
  ): Promise<JsonRpcResponse | undefined> {
    return this.receive(classifyMessage(message), {
      kind: 'in-process',
      caller,
      stream: CLOSED_STREAM,
    });
  }

  /** A session for a transport that keeps one for its life (stdio). */
  openSession(): McpSession {
    return new McpSession(undefined, this.answers.requests);
  }

  /**
   * Serves one message that came in on `transport`, in `session` (the
   * transport's own), else in its caller's: a request is answered; a
   * `notifications/cancelled` cancels the call it names, if under way in
   * that session; the client's answer settles the request it answers.
   * Undefined when no answer is due (and, over stdio, for a request the
   * client cancelled).
   */
  async receive(
    message: McpMessage,
    transport: McpTransport,
    session?: McpSession,
  ): Promise<JsonRpcResponse | undefined> {
    if (message.kind === 'refused') {
      return message.error.toResponse(message.id);
    }
    const own = session ?? this.sessionOf(message, transport);
    try {
      return await this.serve(message, transport, own);
    } finally {
      const { peer } = transport;
      if (peer !== undefined && own.idle && this.callers.get(peer) === own) {
        this.callers.delete(peer);
      }
    }
  }

  private async serve(
    message: Exclude<McpMessage, { kind: 'refused' }>,
    transport: McpTransport,
    session: McpSession,
  ): Promise<JsonRpcResponse | undefined> {
    if (message.kind === 'notification') {
      const cancelled = cancelledRequestId(message);
      if (cancelled !== undefined) {
        session.cancel(cancelled);
      }
      return undefined;
    }
    if (message.kind === 'response') {
      await this.answers.receive(message, session, transport.peer);
      return undefined;
    }
    const call = session.begin(
      message,
      transport,
      transport.caller.timeout ?? this.settings.timeout,
    );
    try {
      const response = await this.dispatcher.answer(call);
      // The spec's SHOULD NOT: over a shared channel a cancelled request
      // is not answered (an HTTP POST still gets its answer).
      return call.cancelled && transport.kind === 'stdio'
        ? undefined
        : response;
    } finally {
      session.end(call);
    }
  }

  /** The session of a message whose transport has none of its own. */
  private sessionOf(message: McpMessage, transport: McpTransport): McpSession {
    const { peer } = transport;
    if (message.revision === '2026' || peer === undefined) {
      return new McpSession(undefined, this.answers.requests);
    }
    let session = this.callers.get(peer);
    if (!session) {
      session = new McpSession(
        this.levels.of(peer),
        this.answers.requests,
        peer,
      );
      this.callers.set(peer, session);
    }
    return session;
  }
}
