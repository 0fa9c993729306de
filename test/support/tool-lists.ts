import { postMcp, rpcRequest } from './mcp-http';
import { modernRequest, postModern } from './modern-mcp';

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
  const legacy = await postMcp(baseUrl, rpcRequest(1, 'tools/list'), headers);
  const modern = await postModern(
    baseUrl,
    modernRequest(2, 'tools/list'),
    headers,
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
