/** Protocol versions this server speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
]);
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
/** What the MCP specification allows as a tool name. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** The version of this library, the default `serverInfo.version`. */
export const MCP_LIBRARY_VERSION = '0.1.0';
export const DEFAULT_MCP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_SIZE = 1024 * 1024;
/** Protocol versions whose requests may be JSON-RPC batches (2025-06-18 dropped them). */
export const BATCH_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  '2025-03-26',
]);
/** Most messages in one batch; a longer one is refused whole. */
export const MAX_BATCH_SIZE = 100;
