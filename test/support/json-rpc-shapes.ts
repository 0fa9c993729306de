import type { JsonRpcErrorObject } from '@nestops/mcp/internal';

/** The shapes of JSON-RPC answers as the raw-HTTP tests read them. */
export type RpcError = JsonRpcErrorObject;

export interface RpcBody {
  readonly jsonrpc: string;
  readonly id: string | number | null;
  readonly result?: unknown;
  readonly error?: RpcError;
}

export interface ToolResult {
  readonly content: readonly { readonly type: string; readonly text: string }[];
  readonly isError?: boolean;
  readonly structuredContent?: Readonly<Record<string, unknown>>;
}

export type HeaderMap = Readonly<Record<string, string>>;
