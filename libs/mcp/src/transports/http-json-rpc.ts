import type {
  IncomingHttpHeaders,
  IncomingMessage,
  ServerResponse,
} from 'node:http';
import type { CarrierRequest } from '@nestops/operations/internal';
import type { McpCallerContext } from '../mcp-caller.context.js';
import { idOf } from '../json-rpc/json-rpc-envelope.js';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  type JsonRpcResponse,
  MCP_UNSUPPORTED_PROTOCOL_VERSION,
} from '../json-rpc/json-rpc.types.js';
import {
  INVALID_REQUEST_META,
  McpProtocolError,
} from '../json-rpc/mcp-protocol.error.js';
import {
  BATCH_PROTOCOL_VERSIONS,
  MAX_BATCH_SIZE,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../mcp.constants.js';
import type { McpDispatcher } from '../mcp.dispatcher.js';
import { answerParts, answerText } from '../protocol/answer-text.js';
import {
  cancelledRequestId,
  classifyMessage,
  type McpMessage,
} from '../protocol/mcp-message.js';
import type { ProtocolEra } from '../protocol/protocol-era.js';
import { sendJson, sendJsonParts, sendJsonText } from './http-problem.js';
import { CarrierCancel } from './carrier-cancel.js';
import { CallerLogLevels } from './caller-log-levels.js';
import { callerOf, InFlightCalls } from './in-flight-calls.js';
import { HttpResponseStream } from './http-response-stream.js';
import {
  requestHeadersRefusal,
  versionHeaderRefusal,
} from './request-headers.js';

/**
 * The JSON-RPC content of one POST, answered over HTTP. The message is
 * classified once, with the POST's `MCP-Protocol-Version`; the carrier's
 * rules are checked before it is dispatched (a 2025 request's header
 * version must be one spoken here; a 2026 request's `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` must match its body); then the dispatcher
 * serves it and the answer is written with its status, as JSON or, when the
 * call sent messages ahead of it, as the last event of an SSE stream. Under
 * a protocol version that has them, a JSON-RPC batch's messages are served
 * one after another, each on its own.
 */
export class HttpJsonRpc {
  /** The 2025 calls under way here, for `notifications/cancelled`. */
  private readonly inFlight = new InFlightCalls();
  /** The log levels 2025 callers set, for their later calls here. */
  private readonly logLevels = new CallerLogLevels();

  constructor(private readonly dispatcher: McpDispatcher) {}

  /**
   * Answers `message`, the body of `req`, whose headers every call of it
   * is given, with `request` (the app's view of `req`, by default `req`
   * itself) for the caller's address and the endpoint, and its `user`.
   */
  async answer(
    req: IncomingMessage,
    message: unknown,
    res: ServerResponse,
    request: CarrierRequest & { user?: unknown } = req,
  ): Promise<void> {
    const { headers } = req;
    const caller: McpCallerContext = {
      headers,
      request,
      principal: request.user,
    };
    const header = headers['mcp-protocol-version'];
    const version = header === undefined ? undefined : String(header);
    if (
      Array.isArray(message) &&
      // Stryker disable next-line ConditionalExpression: BATCH_PROTOCOL_VERSIONS holds no undefined (the check is for the type)
      version !== undefined &&
      BATCH_PROTOCOL_VERSIONS.includes(version)
    ) {
      return this.batch(caller, message, req, res);
    }
    const classified = classifyMessage(message, version);
    const refusal = carrierRefusal(headers, classified, message, version);
    if (refusal) {
      return sendJson(res, 400, refusal);
    }
    const stream = new HttpResponseStream(res, headers);
    const response = await this.serve(
      classified,
      message,
      caller,
      req,
      res,
      stream,
    );
    if (stream.finish(response)) {
      return;
    }
    if (response === undefined) {
      res.writeHead(202).end();
      return;
    }
    const status = statusOf(response, classified.era);
    const parts = answerParts(response);
    // Stryker disable next-line ConditionalExpression: the parts are the answer's text in pieces (sparing a copy, a matter for bench/): sent as text, the same bytes go
    if (parts) {
      return sendJsonParts(res, status, parts);
    }
    sendJsonText(res, status, answerText(response));
  }

  /**
   * Serves one message: a 2026 request cancelled when its client closes
   * the POST, a 2025 one when the same caller's `notifications/cancelled`
   * names it.
   */
  private async serve(
    classified: McpMessage,
    message: unknown,
    caller: McpCallerContext,
    req: IncomingMessage,
    res: ServerResponse,
    stream: HttpResponseStream,
  ): Promise<JsonRpcResponse | undefined> {
    if (classified.era === 'modern') {
      return this.dispatcher.serve(
        classified,
        { ...caller, signal: closeSignal(res).signal },
        stream,
      );
    }
    // A 2025 message: a `notifications/cancelled` cancels the call it names
    // (if this caller has it under way here), each message carries its
    // caller's log levels (`logging/setLevel` sets them, a call's log
    // messages follow them), and each request can be cancelled while it is
    // under way.
    const who = callerOf(req.headers, req.socket.remoteAddress);
    const cancelled = cancelledRequestId(message);
    // Stryker disable next-line ConditionalExpression: no call is tracked under an undefined id, so cancelling one cancels nothing
    if (cancelled !== undefined) {
      this.inFlight.cancel(who, cancelled);
    }
    const logged = { ...caller, logging: this.logLevels.of(who) };
    // Stryker disable next-line ConditionalExpression,BlockStatement: a message that is not a request (a notification, a response, a refused message) is answered at once or not at all, and reads no signal: tracking it under its id cancels nothing
    if (classified.kind !== 'request') {
      return this.dispatcher.serve(classified, logged, stream);
    }
    // Undefined when this caller already has a request with this id under
    // way: the first keeps the cancellation.
    const cancel = this.inFlight.track(who, classified.id);
    try {
      return await this.dispatcher.serve(
        classified,
        { ...logged, signal: cancel?.signal },
        stream,
      );
    } finally {
      this.inFlight.forget(who, classified.id, cancel);
    }
  }

  private async batch(
    caller: McpCallerContext,
    messages: readonly unknown[],
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const classified = messages.map((each) => classifyMessage(each));
    const problem =
      messages.length === 0
        ? 'the batch is empty'
        : messages.length > MAX_BATCH_SIZE
          ? `a batch holds at most ${MAX_BATCH_SIZE} messages`
          : classified.some((each) => each.era === 'modern')
            ? 'a 2026-07-28 request (one with a protocol version in its _meta) cannot be part of a batch'
            : undefined;
    if (problem) {
      return sendJson(
        res,
        400,
        McpProtocolError.invalidRequest(problem).toResponse(null),
      );
    }
    const responses: JsonRpcResponse[] = [];
    const logging = this.logLevels.of(
      callerOf(req.headers, req.socket.remoteAddress),
    );
    for (const each of classified) {
      const response = await this.dispatcher.serve(each, {
        ...caller,
        logging,
      });
      if (response) {
        responses.push(response);
      }
    }
    if (responses.length === 0) {
      res.writeHead(202).end();
      return;
    }
    sendJsonText(res, 200, answerText(responses));
  }
}

/**
 * The error answer of a message the carrier's own rules refuse before it is
 * served, or undefined. A 2025 message under an `MCP-Protocol-Version` not
 * spoken here: `-32022`. A 2026 one: first the header's version against the
 * body's (`-32020` whatever either names), then, once its `_meta` is valid,
 * the other headers against the request (`-32020`).
 */
function carrierRefusal(
  headers: IncomingHttpHeaders,
  classified: McpMessage,
  message: unknown,
  version: string | undefined,
): JsonRpcResponse | undefined {
  if (classified.era === 'legacy') {
    return version !== undefined &&
      !SUPPORTED_PROTOCOL_VERSIONS.includes(version)
      ? McpProtocolError.unsupportedVersion(
          version,
          SUPPORTED_PROTOCOL_VERSIONS,
        ).toResponse(idOf(message))
      : undefined;
  }
  const mismatch = versionHeaderRefusal(
    headers,
    classified.bodyVersion,
    idOf(message),
  );
  if (mismatch) {
    return mismatch.toResponse(idOf(message));
  }
  return classified.kind === 'request'
    ? requestHeadersRefusal(headers, classified)?.toResponse(classified.id)
    : undefined;
}

/**
 * For a 2026 request: aborted when the client closes the POST's response
 * before the answer went, which cancels a call (2026-07-28 cancels by
 * closing the stream; a 2025 client's disconnect is not a cancellation).
 */
function closeSignal(res: ServerResponse): CarrierCancel {
  const closed = new CarrierCancel();
  res.once('close', () => {
    if (!res.writableFinished) {
      closed.cancel();
    }
  });
  return closed;
}

/**
 * A single message's status: `400` when the POST itself was bad, `500` when
 * the server failed. A 2026 request also gets `400` for a bad `_meta`
 * (`-32602` with `PROTOCOLS_VALIDATION_005`) or a version not spoken
 * (`-32022`), and `404` for a method it does not have; its other errors (an
 * unknown tool, say) are answers, `200`, as in 2025. (Headers that disagree
 * with the body, `-32020`, are refused before the message is served, by
 * `carrierRefusal`.)
 */
function statusOf(response: JsonRpcResponse, era: ProtocolEra): number {
  if (!('error' in response)) {
    return 200;
  }
  const { code, data } = response.error;
  switch (code) {
    case JSON_RPC_PARSE_ERROR:
    case JSON_RPC_INVALID_REQUEST:
      return 400;
    case JSON_RPC_INTERNAL_ERROR:
      return 500;
  }
  if (era === 'legacy') {
    return 200;
  }
  if (code === JSON_RPC_METHOD_NOT_FOUND) {
    return 404;
  }
  return code === MCP_UNSUPPORTED_PROTOCOL_VERSION ||
    data.code === INVALID_REQUEST_META
    ? 400
    : 200;
}
