import {
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  JSON_RPC_SERVER_ERROR,
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcResponse,
  MCP_HEADER_MISMATCH,
  MCP_MISSING_CLIENT_CAPABILITY,
  MCP_RESOURCE_NOT_FOUND,
  MCP_UNSUPPORTED_PROTOCOL_VERSION,
} from './json-rpc.types.js';

/** The catalogue code of a 2026 request whose `_meta` lacks a required field or has a bad one. */
export const INVALID_REQUEST_META = 'PROTOCOLS_VALIDATION_005';
/** The catalogue code of a `resources/read` of a URI the caller cannot read. */
export const RESOURCE_NOT_FOUND = 'PROTOCOLS_NOTFOUND_003';
/** The catalogue code of a 2026 request whose HTTP headers disagree with its body. */
export const HEADER_MISMATCH = 'PROTOCOLS_VALIDATION_006';
/** The catalogue code of a 2026 retry whose `requestState` cannot be used. */
export const INVALID_REQUEST_STATE = 'PROTOCOLS_VALIDATION_012';
/** The catalogue code of a 2026 request that needs a client capability not declared. */
export const MISSING_CLIENT_CAPABILITY = 'PROTOCOLS_VALIDATION_013';

/**
 * A malformed MCP request: a JSON-RPC error with the catalogue code in
 * `error.data.code`. Operation failures are never protocol errors.
 */
export class McpProtocolError extends Error {
  /** @internal Made by the server's own checks. */
  constructor(
    /** The JSON-RPC `error.code` (`-32602`, `-32601`...). */
    readonly rpcCode: number,
    /** The catalogue code in `error.data.code` (`PROTOCOLS_NOTFOUND_002`...). */
    readonly code: string,
    message: string,
    /** More members of `error.data`, beside `code`. */
    private readonly details: Omit<JsonRpcErrorObject['data'], 'code'> = {},
  ) {
    super(message);
    this.name = 'McpProtocolError';
  }

  /** @internal The JSON-RPC error answer to the request `id`. */
  toResponse(id: JsonRpcId | null): JsonRpcResponse {
    return {
      jsonrpc: '2.0',
      id,
      error: {
        code: this.rpcCode,
        message: this.message,
        data: { code: this.code, ...this.details },
      },
    };
  }

  /** @internal */
  static parse(): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_PARSE_ERROR,
      'PROTOCOLS_VALIDATION_001',
      'Parse error: the request body is not JSON.',
    );
  }

  /** @internal */
  static invalidRequest(reason: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_REQUEST,
      'PROTOCOLS_VALIDATION_001',
      `Invalid request: ${reason}.`,
    );
  }

  /** @internal */
  static unsupportedVersion(
    version: string,
    supported: readonly string[],
  ): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_REQUEST,
      'PROTOCOLS_VALIDATION_002',
      `Unsupported MCP-Protocol-Version ${JSON.stringify(version)}; supported: ${supported.join(', ')}.`,
    );
  }

  /** @internal */
  static methodNotFound(method: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_METHOD_NOT_FOUND,
      'PROTOCOLS_NOTFOUND_001',
      `Method not found: ${JSON.stringify(method)}.`,
    );
  }

  /** @internal */
  static missingToolName(): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_VALIDATION_001',
      'Invalid params: tools/call needs a string "name".',
    );
  }

  /** @internal */
  static unknownTool(name: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_NOTFOUND_002',
      `Unknown tool: ${JSON.stringify(name)}.`,
    );
  }

  /** @internal */
  static argumentsNotObject(): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_VALIDATION_003',
      'Invalid params: "arguments" must be an object.',
    );
  }

  /** @internal A `logging/setLevel` without one of the MCP log levels. */
  static badLogLevel(levels: readonly string[]): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_VALIDATION_001',
      `Invalid params: logging/setLevel needs a "level", one of ${levels.join(', ')}.`,
    );
  }

  /** @internal A 2026 request whose `_meta` lacks a required field, or carries a bad one. */
  static invalidRequestMeta(reason: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      INVALID_REQUEST_META,
      `Invalid params: ${reason}.`,
    );
  }

  /** @internal A per-request protocol version this server does not speak. */
  static unsupportedProtocolVersion(
    requested: string,
    supported: readonly string[],
    reason: string,
  ): McpProtocolError {
    return new McpProtocolError(
      MCP_UNSUPPORTED_PROTOCOL_VERSION,
      'PROTOCOLS_VALIDATION_002',
      `Unsupported protocol version ${JSON.stringify(requested)}: ${reason}.`,
      { supported, requested },
    );
  }

  /** @internal A 2026 retry whose `requestState` cannot be used, and why. */
  static invalidRequestState(reason: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      INVALID_REQUEST_STATE,
      `Invalid params: requestState ${reason}.`,
    );
  }

  /** @internal A 2026 request for an operation that needs what the client did not declare. */
  static missingClientCapability(
    missing: Readonly<Record<string, object>>,
  ): McpProtocolError {
    return new McpProtocolError(
      MCP_MISSING_CLIENT_CAPABILITY,
      MISSING_CLIENT_CAPABILITY,
      `Missing required client capability: ${Object.keys(missing).join(', ')}.`,
      { requiredCapabilities: missing },
    );
  }

  /**
   * @internal A task method naming no task this caller has: unknown,
   * expired, or another caller's (answered alike).
   */
  static unknownTask(taskId: unknown): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_NOTFOUND_006',
      typeof taskId === 'string'
        ? `Unknown task: ${JSON.stringify(taskId.slice(0, 200))}.`
        : 'Invalid params: a task method needs a string "taskId".',
    );
  }

  /** @internal A task method whose params are malformed. */
  static invalidTaskParams(reason: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_VALIDATION_014',
      `Invalid params: ${reason}.`,
    );
  }

  /** @internal A 2026 request whose HTTP headers are missing or disagree with its body. */
  static headerMismatch(reason: string): McpProtocolError {
    return new McpProtocolError(
      MCP_HEADER_MISMATCH,
      HEADER_MISMATCH,
      `Header mismatch: ${reason}.`,
    );
  }

  /** @internal A `resources/read` (or `resources/subscribe`) without a string `uri`. */
  static missingResourceUri(method: string): McpProtocolError {
    return new McpProtocolError(
      JSON_RPC_INVALID_PARAMS,
      'PROTOCOLS_VALIDATION_001',
      `Invalid params: ${method} needs a string "uri".`,
    );
  }

  /**
   * @internal A URI the caller cannot read: unknown, or a resource it may
   * not see (one answer for both). `-32002` in 2025, `-32602` in 2026.
   */
  static resourceNotFound(
    uri: string,
    revision: '2025' | '2026',
  ): McpProtocolError {
    return new McpProtocolError(
      revision === '2025' ? MCP_RESOURCE_NOT_FOUND : JSON_RPC_INVALID_PARAMS,
      RESOURCE_NOT_FOUND,
      `Resource not found: ${JSON.stringify(uri)}.`,
      { uri },
    );
  }

  /**
   * @internal The operation behind a resource failed: its text and code,
   * `-32602` for invalid input, else the implementation-defined `-32000`.
   */
  static resourceReadFailed(
    uri: string,
    code: string,
    text: string,
  ): McpProtocolError {
    return new McpProtocolError(
      code.startsWith('VALIDATION_')
        ? JSON_RPC_INVALID_PARAMS
        : JSON_RPC_SERVER_ERROR,
      code,
      text,
      { uri },
    );
  }
}
