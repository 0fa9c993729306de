import { rpcRequest, mcpHttp } from './mcp-http';
import { modernRequest } from './modern-mcp';

/** What one caller's `tools/list` holds under both protocol eras. */
export interface ListedTools {
  /** The 2025 list's tool names, in the order given. */
  readonly legacy: readonly string[];
  /** The 2026-07-28 list's tool names (sorted by the server). */
  readonly modern: readonly string[];
  /** The 2026 list's tool titles. */
  readonly titles: readonly (string | undefined)[];
  /** The 2026 list's `cacheScope`. */
  readonly cacheScope: string;
}

/** Lists the tools with `headers`, as a 2025 and as a 2026-07-28 client. */
export async function listedTools(
  baseUrl: string,
  headers: Record<string, string> = {},
): Promise<ListedTools> {
  type Tools = { tools: { name: string; title?: string }[] };
  const legacy = await mcpHttp(baseUrl).post(
    rpcRequest(1, 'tools/list'),
    headers,
  );
  const modern = await mcpHttp(baseUrl).post(
    modernRequest(2, 'tools/list'),
    headers,
    { modern: true },
  );
  const result = modern.json<{ result: Tools & { cacheScope: string } }>()
    .result;
  return {
    legacy: legacy
      .json<{ result: Tools }>()
      .result.tools.map((tool) => tool.name),
    modern: result.tools.map((tool) => tool.name),
    titles: result.tools.map((tool) => tool.title),
    cacheScope: result.cacheScope,
  };
}
