/** The shapes of JSON-RPC answers as the raw-HTTP tests read them. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data: {
    readonly code: string;
    readonly correlationId?: string;
    /** `-32022` only. */
    readonly supported?: readonly string[];
    readonly requested?: string;
  };
}

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
