/**
 * The 2025 protocol revisions, newest first: those an `initialize` handshake
 * negotiates (a request without a per-request protocol version in its
 * `_meta`).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
]);
/** The newest 2025 revision: what `initialize` answers when it cannot echo the client's. */
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
/**
 * The stateless protocol revisions, newest first: a request names one in
 * `params._meta["io.modelcontextprotocol/protocolVersion"]`, with no
 * `initialize`.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2026-07-28',
]);
/**
 * Every protocol revision this server speaks, newest first: what
 * `server/discover` advertises and an unsupported-version error lists.
 */
export const SPOKEN_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  ...MODERN_PROTOCOL_VERSIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
]);
/** What the MCP specification allows as a tool name. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** `serverInfo.name` when neither the options, the host nor the app's `package.json` give one. */
export const DEFAULT_SERVER_NAME = 'nestjs-mcp-server';
/** `serverInfo.version` when neither the options nor the app's `package.json` give one. */
export const DEFAULT_SERVER_VERSION = '0.0.0';
export const DEFAULT_MCP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_SIZE = 1024 * 1024;
/** `cacheTtl` when not set: 5 minutes, the `ttlMs` of `tools/list` and `server/discover`. */
export const DEFAULT_CACHE_TTL = 5 * 60 * 1000;
/** Protocol versions whose requests may be JSON-RPC batches (2025-06-18 dropped them). */
export const BATCH_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2025-03-26',
]);
/** Most messages in one batch; a longer one is refused whole. */
export const MAX_BATCH_SIZE = 100;
