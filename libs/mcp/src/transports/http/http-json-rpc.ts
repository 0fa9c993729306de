import type {
  IncomingHttpHeaders,
  IncomingMessage,
  ServerResponse,
} from 'node:http';
import type { CarrierRequest } from '@nestops/operations/internal';
import type { McpCallerContext } from '../../protocol/mcp-caller.context.js';
import { idOf } from '../../json-rpc/json-rpc-envelope.js';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  type JsonRpcResponse,
  MCP_MISSING_CLIENT_CAPABILITY,
  MCP_UNSUPPORTED_PROTOCOL_VERSION,
} from '../../json-rpc/json-rpc.types.js';
import {
  INVALID_REQUEST_META,
  McpProtocolError,
} from '../../json-rpc/mcp-protocol.error.js';
import {
  BATCH_PROTOCOL_VERSIONS,
  MAX_BATCH_SIZE,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../mcp.constants.js';
import { answerParts, answerText } from '../../protocol/answer-text.js';
import {
  classifyMessage,
  type McpMessage,
} from '../../protocol/mcp-message.js';
import type { McpProtocol } from '../../protocol/mcp-protocol.js';
import type { McpSession } from '../../protocol/mcp-session.js';
import type { McpTransport } from '../../protocol/mcp-transport.js';
import type { ProtocolRevision } from '../../protocol/protocol-revision.js';
import { CLOSED_STREAM } from '../../protocol/closed-stream.js';
import { sendJson, sendJsonParts, sendJsonText } from './http-problem.js';
import { HttpResponseStream } from './http-response-stream.js';
import type { Resumption } from '../../resumption/resumption.js';
import type { PermissionGate } from '../../auth/permission-gate.js';
import {
  type ParamHeadersOf,
  requestHeadersRefusal,
  versionHeaderRefusal,
} from './request-headers.js';
import { callerOf, type PrincipalIdOf } from './http-caller.js';

/**
 * The JSON-RPC content of one POST, moved between HTTP and the protocol
 * layer. The message is classified once, with the POST's
 * `MCP-Protocol-Version`; in OAuth mode the permission gate reads it; the
 * carrier's rules are checked (a 2025 request's header version must be one
 * spoken here; a 2026 request's `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` and `Mcp-Param-*` must match its body); then the protocol layer serves it and
 * the answer is written with its status, as JSON or, when the call sent
 * messages ahead of it, as the last event of an SSE stream (resumable, for
 * a 2025 request, with `resumption`). A 2026 request is cancelled when its
 * client closes the POST; a 2025 one by its caller's
 * `notifications/cancelled` only (a dropped connection is not a
 * cancellation: the call runs on). Under a protocol version that has them, a
 * JSON-RPC batch's messages are served one after another, each on its own.
 */
export class HttpJsonRpc {
  constructor(
    private readonly protocol: McpProtocol,
    /** A principal's id, which a 2025 caller's session is keyed by. */
    private readonly principalId: PrincipalIdOf,
    private readonly gate?: PermissionGate,
    /** A tool's `Mcp-Param-*` headers, checked against a 2026 call's arguments. */
    private readonly paramHeadersOf?: ParamHeadersOf,
    /** What makes a 2025 call's SSE answer resumable; undefined: nothing. */
    private readonly resumption?: Resumption,
  ) {}

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
      version !== undefined &&
      BATCH_PROTOCOL_VERSIONS.includes(version)
    ) {
      return this.batch(caller, message, req, res, version);
    }
    const classified = classifyMessage(message, version);
    if (this.gate?.refuses([classified], caller.principal, res)) {
      return;
    }
    const refusal = carrierRefusal(
      headers,
      classified,
      message,
      version,
      this.paramHeadersOf,
    );
    if (refusal) {
      return sendJson(res, 400, refusal);
    }
    const peer =
      classified.revision === '2025'
        ? callerOf(
            caller.principal,
            this.principalId,
            headers,
            req.socket.remoteAddress,
          )
        : undefined;
    const { resumption } = this;
    const stream = new HttpResponseStream(
      res,
      headers,
      resumption && peer !== undefined ? { resumption, peer } : undefined,
    );
    const transport: McpTransport = {
      kind: 'http',
      caller,
      protocolVersion: version,
      peer,
      stream,
    };
    const response = await this.protocol.receive(
      classified,
      transport,
      classified.revision === '2026' ? this.closing(res) : undefined,
    );
    if (stream.finish(response)) {
      return;
    }
    if (response === undefined) {
      res.writeHead(202).end();
      return;
    }
    const status = statusOf(response, classified.revision);
    const parts = answerParts(response);
    if (parts) {
      return sendJsonParts(res, status, parts);
    }
    sendJsonText(res, status, answerText(response));
  }

  /**
   * The session of a 2026 request: its call is cancelled when the client
   * closes the POST's response before the answer went (2026-07-28 cancels by
   * closing the stream; a 2025 client's disconnect is not a cancellation).
   */
  private closing(res: ServerResponse): McpSession {
    const session = this.protocol.openSession();
    res.once('close', () => {
      if (!res.writableFinished) {
        session.cancelAll();
      }
    });
    return session;
  }

  private async batch(
    caller: McpCallerContext,
    messages: readonly unknown[],
    req: IncomingMessage,
    res: ServerResponse,
    version: string,
  ): Promise<void> {
    const classified = messages.map((each) => classifyMessage(each));
    const problem =
      messages.length === 0
        ? 'the batch is empty'
        : messages.length > MAX_BATCH_SIZE
          ? `a batch holds at most ${MAX_BATCH_SIZE} messages`
          : classified.some((each) => each.revision === '2026')
            ? 'a 2026-07-28 request (one with a protocol version in its _meta) cannot be part of a batch'
            : undefined;
    if (problem) {
      return sendJson(
        res,
        400,
        McpProtocolError.invalidRequest(problem).toResponse(null),
      );
    }
    if (this.gate?.refuses(classified, caller.principal, res)) {
      return;
    }
    const transport: McpTransport = {
      kind: 'http',
      caller,
      protocolVersion: version,
      peer: callerOf(
        caller.principal,
        this.principalId,
        req.headers,
        req.socket.remoteAddress,
      ),
      stream: CLOSED_STREAM,
    };
    const responses: JsonRpcResponse[] = [];
    for (const each of classified) {
      const response = await this.protocol.receive(each, transport);
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
  paramHeadersOf: ParamHeadersOf | undefined,
): JsonRpcResponse | undefined {
  if (classified.revision === '2025') {
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
    ? requestHeadersRefusal(headers, classified, paramHeadersOf)?.toResponse(
        classified.id,
      )
    : undefined;
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
function statusOf(
  response: JsonRpcResponse,
  revision: ProtocolRevision,
): number {
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
  if (revision === '2025') {
    return 200;
  }
  if (code === JSON_RPC_METHOD_NOT_FOUND) {
    return 404;
  }
  return code === MCP_UNSUPPORTED_PROTOCOL_VERSION ||
    code === MCP_MISSING_CLIENT_CAPABILITY ||
    data.code === INVALID_REQUEST_META
    ? 400
    : 200;
}
