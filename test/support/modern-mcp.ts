/** Protocol revision 2026-07-28: what its requests carry (posted with `mcpHttp(url).post(message, headers, { modern: true })`). */
export const MODERN_VERSION = '2026-07-28';
export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export const MODERN_META: Readonly<Record<string, unknown>> = {
  [VERSION_KEY]: MODERN_VERSION,
  [CAPABILITIES_KEY]: {},
  'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1.0.0' },
};

export interface RpcMessage {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A 2026 request: `params._meta` is `meta` (the full envelope by default). */
export function modernRequest(
  id: string | number,
  method: string,
  params: Readonly<Record<string, unknown>> = {},
  meta: Readonly<Record<string, unknown>> = MODERN_META,
): RpcMessage {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

/** The headers a conforming client sends with `message`. */
export function modernHeaders(message: RpcMessage): Record<string, string> {
  const name =
    message.method === 'resources/read'
      ? message.params.uri
      : message.method === 'tools/call' || message.method === 'prompts/get'
        ? message.params.name
        : message.method.startsWith('tasks/')
          ? message.params.taskId
          : undefined;
  return {
    'MCP-Protocol-Version': MODERN_VERSION,
    'Mcp-Method': message.method,
    ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
  };
}
