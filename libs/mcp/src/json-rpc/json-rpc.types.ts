/** The id of a JSON-RPC request, echoed by its answer. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id?: JsonRpcId;
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * The answer to one JSON-RPC request: its `result`, or an `error` (whose
 * `id` is null when the request's could not be read).
 *
 * @publicApi
 */
export type JsonRpcResponse =
  | {
      readonly jsonrpc: '2.0';
      /** The request's id. */
      readonly id: string | number;
      readonly result: unknown;
    }
  | {
      readonly jsonrpc: '2.0';
      /** The request's id; null when it could not be read. */
      readonly id: string | number | null;
      /** The error; `data.code` is the catalogue code. */
      readonly error: {
        /** The JSON-RPC error code (`-32700`, `-32600`, `-32601`, `-32602`, `-32603`, or MCP's `-32020`, `-32022`). */
        readonly code: number;
        /** What went wrong, in English. */
        readonly message: string;
        /** The catalogue code, and what more the error tells. */
        readonly data: {
          /** The catalogue code (`PROTOCOLS_VALIDATION_001`...). */
          readonly code: string;
          /** Under which an unexpected failure was logged (`-32603` only). */
          readonly correlationId?: string;
          /** Every protocol version the server speaks (`-32022` only). */
          readonly supported?: readonly string[];
          /** The protocol version the request named (`-32022` only). */
          readonly requested?: string;
          /** The arguments that failed validation (a prompt's, `-32602` only). */
          readonly fields?: readonly string[];
          /** The URI a `resources/read` named (its errors only). */
          readonly uri?: string;
          /** What the client must declare for the request (`-32021` only). */
          readonly requiredCapabilities?: Readonly<Record<string, object>>;
        };
      };
    };

/** The `error` of a JSON-RPC error answer; `data.code` is the catalogue code. */
export type JsonRpcErrorObject = Extract<
  JsonRpcResponse,
  { readonly error: unknown }
>['error'];

/** JSON-RPC 2.0 error codes used by the MCP carrier. */
export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_INTERNAL_ERROR = -32603;
/** JSON-RPC's implementation-defined server error: an operation read as a resource failed. */
export const JSON_RPC_SERVER_ERROR = -32000;
/** MCP 2025: a `resources/read` of a URI that names no resource (2026-07-28: `-32602`). */
export const MCP_RESOURCE_NOT_FOUND = -32002;
/** MCP 2026-07-28: the HTTP headers disagree with the body, or one is missing. */
export const MCP_HEADER_MISMATCH = -32020;
/** MCP 2026-07-28: the request needs a client capability its `clientCapabilities` do not declare. */
export const MCP_MISSING_CLIENT_CAPABILITY = -32021;
/** MCP 2026-07-28: the request's protocol version is not spoken here. */
export const MCP_UNSUPPORTED_PROTOCOL_VERSION = -32022;
