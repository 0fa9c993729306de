import type { LogLevel } from '@nestops/operations/internal';
import {
  MODERN_PROTOCOL_VERSIONS,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../mcp.constants.js';
import { isRecord } from '../json-rpc/json-rpc-envelope.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';

/**
 * The protocol revision a message is served by: `'2026'` is 2026-07-28 and
 * later (every request names its version and capabilities in
 * `params._meta`, no `initialize`), `'2025'` the 2025 revisions (an
 * `initialize` handshake).
 */
export type ProtocolRevision = '2026' | '2025';

/** The `_meta` keys of a 2026 request. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META =
  'io.modelcontextprotocol/clientCapabilities';
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
/** The `_meta` key of a 2026 result naming the server. */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/**
 * The log levels a request may ask for (RFC 5424 severities): the type
 * keeps them the operations library's, and classifying a message (what the
 * stdio host does before the app has loaded) loads nothing of that library.
 */
const LOG_LEVEL_NAMES: Readonly<Record<LogLevel, true>> = {
  debug: true,
  info: true,
  notice: true,
  warning: true,
  error: true,
  critical: true,
  alert: true,
  emergency: true,
};

/** Whether `value` names one of MCP's log levels. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(LOG_LEVEL_NAMES, value);
}

/** What a valid 2026 request's `_meta` says about it. */
export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * The log level the client asked for: the call's log messages at it or
   * above go to the client; a request that asks for none gets none.
   */
  readonly logLevel?: string;
}

/**
 * The protocol version a `_meta` value names in
 * `io.modelcontextprotocol/protocolVersion`, when it names one as a string,
 * supported or not: what a carrier that also carries a version (HTTP's
 * `MCP-Protocol-Version` header) compares its own with.
 */
export function versionIn(meta: unknown): string | undefined {
  const version = isRecord(meta) ? meta[PROTOCOL_VERSION_META] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/**
 * Reads the `_meta` of a 2026 request's params: `-32602` when
 * `io.modelcontextprotocol/protocolVersion` or `clientCapabilities` is
 * missing or malformed, or `logLevel` is not a log level; `-32022` (data
 * `{ supported, requested }`) when the version is not a 2026 revision this
 * server speaks.
 */
export function readRequestMeta(
  params: Readonly<Record<string, unknown>>,
): RequestMeta {
  const meta = params._meta;
  if (!isRecord(meta)) {
    throw McpProtocolError.invalidRequestMeta(
      `a ${MODERN_PROTOCOL_VERSIONS[0]} request needs "params._meta" with "${PROTOCOL_VERSION_META}" and "${CLIENT_CAPABILITIES_META}"`,
    );
  }
  const version = meta[PROTOCOL_VERSION_META];
  if (typeof version !== 'string') {
    throw McpProtocolError.invalidRequestMeta(
      `"_meta" needs "${PROTOCOL_VERSION_META}" as a string`,
    );
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META];
  if (!isRecord(capabilities)) {
    throw McpProtocolError.invalidRequestMeta(
      `"_meta" needs "${CLIENT_CAPABILITIES_META}" as an object`,
    );
  }
  const logLevel = meta[LOG_LEVEL_META];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw McpProtocolError.invalidRequestMeta(
      `"${LOG_LEVEL_META}" must be one of ${Object.keys(LOG_LEVEL_NAMES).join(', ')}`,
    );
  }
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) {
    throw McpProtocolError.unsupportedProtocolVersion(
      version,
      SPOKEN_PROTOCOL_VERSIONS,
      SUPPORTED_PROTOCOL_VERSIONS.includes(version)
        ? `${version} is negotiated by initialize, not named per request; per request: ${MODERN_PROTOCOL_VERSIONS.join(', ')}`
        : `supported: ${SPOKEN_PROTOCOL_VERSIONS.join(', ')}`,
    );
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    ...(logLevel === undefined ? {} : { logLevel }),
  };
}

/** A message's `params._meta`, whatever it holds. */
export function metaOf(message: unknown): unknown {
  const params = isRecord(message) ? message.params : undefined;
  return isRecord(params) ? params._meta : undefined;
}
