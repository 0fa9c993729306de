import { idOf, isRecord, readEnvelope } from '../json-rpc/json-rpc-envelope.js';
import type { JsonRpcId } from '../json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MODERN_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import {
  metaOf,
  PROTOCOL_VERSION_META,
  type ProtocolRevision,
  readRequestMeta,
  type RequestMeta,
  versionIn,
} from './protocol-revision.js';

type Params = Readonly<Record<string, unknown>>;

interface Classified {
  /** The revision whose rules the message is served by. */
  readonly revision: ProtocolRevision;
  /**
   * The version the body names in `_meta` as a string, supported or not:
   * what a carrier with its own copy (HTTP's `MCP-Protocol-Version`)
   * compares with.
   */
  readonly bodyVersion: string | undefined;
}

/** A request to serve: valid JSON-RPC and, in 2026, a valid `_meta`. */
export interface McpRequest extends Classified {
  readonly kind: 'request';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Params;
  /** What a 2026 request's `_meta` says; undefined for a 2025 request. */
  readonly meta: RequestMeta | undefined;
}

/** A message answered by an error without being served. */
export interface McpRefusedMessage extends Classified {
  readonly kind: 'refused';
  /** The id to echo; null when the message has no usable one. */
  readonly id: JsonRpcId | null;
  readonly error: McpProtocolError;
}

/** A notification: nothing is answered. */
export interface McpNotification extends Classified {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: Params;
}

/** The client's answer to a request the server sent it: nothing is answered. */
export interface McpClientResponse extends Classified {
  readonly kind: 'response';
  readonly id: JsonRpcId;
  /** The result; undefined when the client answered with an error. */
  readonly result?: unknown;
  /** The client's JSON-RPC error, when it answered with one. */
  readonly error?: unknown;
}

/** What one parsed message is, read once for everyone who handles it. */
export type McpMessage =
  McpRequest | McpRefusedMessage | McpNotification | McpClientResponse;

/**
 * Reads one parsed message into what it is: its revision, then its JSON-RPC
 * envelope (`-32600` when it is not JSON-RPC 2.0), then, for a 2026
 * request, its `_meta` (`-32602`, `-32022`). The revision is decided by the
 * body: a message whose `params._meta` carries
 * `io.modelcontextprotocol/protocolVersion` is 2026, anything else 2025.
 * A carrier that also names a version outside the body (HTTP's
 * `MCP-Protocol-Version`) passes it as `carrierVersion`: a 2026 version
 * there makes the message 2026 too, so a body without the `_meta` field
 * is refused as missing it rather than served as a 2025 request.
 */
export function classifyMessage(
  message: unknown,
  carrierVersion?: string,
): McpMessage {
  const meta = metaOf(message);
  const revision = revisionOf(meta, carrierVersion);
  const bodyVersion = versionIn(meta);
  try {
    const incoming = readEnvelope(message);
    if (incoming.kind === 'response') {
      return { ...incoming, revision, bodyVersion };
    }
    if (incoming.kind === 'notification') {
      const { method, params } = incoming.request;
      return {
        kind: 'notification',
        revision,
        bodyVersion,
        method,
        params: params ?? {},
      };
    }
    const { request } = incoming;
    const params: Params = request.params ?? {};
    return {
      kind: 'request',
      revision,
      bodyVersion,
      id: request.id,
      method: request.method,
      params,
      meta: revision === '2026' ? readRequestMeta(params) : undefined,
    };
  } catch (error) {
    if (error instanceof McpProtocolError) {
      return {
        kind: 'refused',
        revision,
        bodyVersion,
        id: idOf(message),
        error,
      };
    }
    throw error;
  }
}

function revisionOf(meta: unknown, carrierVersion: string | undefined) {
  return (isRecord(meta) && Object.hasOwn(meta, PROTOCOL_VERSION_META)) ||
    (carrierVersion !== undefined &&
      MODERN_PROTOCOL_VERSIONS.includes(carrierVersion))
    ? '2026'
    : '2025';
}

/**
 * The id of the request a `notifications/cancelled` names
 * (`params.requestId`); undefined for any other notification.
 */
export function cancelledRequestId(
  notification: McpNotification,
): JsonRpcId | undefined {
  if (notification.method !== 'notifications/cancelled') {
    return undefined;
  }
  const { requestId } = notification.params;
  return typeof requestId === 'string' || typeof requestId === 'number'
    ? requestId
    : undefined;
}
