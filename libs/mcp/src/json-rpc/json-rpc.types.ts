export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data: {
    readonly code: string;
    /** Under which an unexpected failure was logged (`-32603` only). */
    readonly correlationId?: string;
    /** Every protocol version the server speaks (`-32022` only). */
    readonly supported?: readonly string[];
    /** The protocol version the request named (`-32022` only). */
    readonly requested?: string;
  };
}

export type JsonRpcResponse =
  | {
      readonly jsonrpc: '2.0';
      readonly id: JsonRpcId;
      readonly result: unknown;
    }
  | {
      readonly jsonrpc: '2.0';
      readonly id: JsonRpcId | null;
      readonly error: JsonRpcErrorObject;
    };

/** JSON-RPC 2.0 error codes used by the MCP carrier. */
export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_INTERNAL_ERROR = -32603;
/** MCP 2026-07-28: the HTTP headers disagree with the body, or one is missing. */
export const MCP_HEADER_MISMATCH = -32020;
/** MCP 2026-07-28: the request's protocol version is not spoken here. */
export const MCP_UNSUPPORTED_PROTOCOL_VERSION = -32022;
