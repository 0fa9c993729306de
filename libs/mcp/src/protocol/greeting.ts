import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import type { McpSettings } from '../options/mcp-settings.js';
import {
  DEFAULT_CACHE_TTL,
  LATEST_PROTOCOL_VERSION,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../mcp.constants.js';
import type { McpMessage } from './mcp-message.js';
import { SERVER_INFO_META } from './protocol-revision.js';

// The answers that greet a client (`initialize`, `server/discover`) and the
// 2026 members of every result: functions of the settings below alone, so
// that the stdio host answers the greetings before the app has loaded, with
// the very text the app's handlers write.

/**
 * A feature of MCP's server side the app may have beyond tools and logging,
 * declared as a capability only when it has it.
 *
 * @publicApi
 */
export type McpServerFeature =
  'resources' | 'prompts' | 'completions' | 'tasks';

/** Every `McpServerFeature`, in the order capabilities list them. */
export const MCP_SERVER_FEATURES: readonly McpServerFeature[] = [
  'resources',
  'prompts',
  'completions',
  'tasks',
];

/** What the greetings and the 2026 members of a result depend on. */
export type McpGreetingSettings = Pick<
  McpSettings,
  'serverName' | 'serverVersion' | 'instructions' | 'cacheTtl'
> & {
  /** The features the app has beyond tools and logging; none when absent. */
  readonly features?: readonly McpServerFeature[];
};

/** Fields every 2026 result carries. */
export interface ModernResult {
  readonly resultType: 'complete';
  readonly _meta: Readonly<Record<string, unknown>>;
}

/** What the server always declares it can do. */
const ALWAYS = { tools: { listChanged: false }, logging: {} } as const;

/**
 * Each feature's capability (no `subscribe`: a stateless server keeps no
 * subscriptions); tasks are 2026-07-28's extension, declared by discovery only.
 */
const FEATURE_CAPABILITIES: Readonly<
  Record<Exclude<McpServerFeature, 'tasks'>, object>
> = {
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
};

/** The capabilities a server with `features` declares. */
export function capabilitiesOf(
  features: readonly McpServerFeature[] = [],
): object {
  const capabilities: Record<string, object> = { ...ALWAYS };
  for (const feature of MCP_SERVER_FEATURES) {
    if (feature !== 'tasks' && features.includes(feature)) {
      capabilities[feature] = FEATURE_CAPABILITIES[feature];
    }
  }
  return capabilities;
}

/** A 2026 result: `resultType: "complete"` and the server's name in `_meta`. */
export function modernResult<T extends object>(
  settings: McpGreetingSettings,
  result: T,
): ModernResult & T {
  const { serverName, serverVersion } = settings;
  return {
    resultType: 'complete',
    ...result,
    _meta: {
      [SERVER_INFO_META]: { name: serverName, version: serverVersion },
    },
  };
}

/**
 * `ttlMs` and `cacheScope` of a cacheable 2026 result: `"public"` only
 * when the answer is the same for every caller, else `"private"`.
 */
export function cacheHints(
  settings: McpGreetingSettings,
  sameForEveryone: boolean,
) {
  return {
    ttlMs: settings.cacheTtl ?? DEFAULT_CACHE_TTL,
    cacheScope: sameForEveryone ? ('public' as const) : ('private' as const),
  };
}

/** The result of a 2025 `initialize` asking for `requested`. */
export function initializeResult(
  settings: McpGreetingSettings,
  requested: unknown,
): { readonly protocolVersion: string; readonly [member: string]: unknown } {
  const { serverName, serverVersion, instructions } = settings;
  return {
    protocolVersion:
      typeof requested === 'string' &&
      SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : LATEST_PROTOCOL_VERSION,
    capabilities: capabilitiesOf(settings.features),
    serverInfo: { name: serverName, version: serverVersion },
    ...(instructions ? { instructions } : {}),
  };
}

/** The result of a 2026 `server/discover`. */
export function discoverResult(settings: McpGreetingSettings): object {
  const { instructions } = settings;
  return modernResult(settings, {
    supportedVersions: SPOKEN_PROTOCOL_VERSIONS,
    capabilities: {
      ...capabilitiesOf(settings.features),
      ...(settings.features?.includes('tasks')
        ? { extensions: { 'io.modelcontextprotocol/tasks': {} } }
        : {}),
    },
    ...(instructions ? { instructions } : {}),
    // Nothing in it depends on who asks.
    ...cacheHints(settings, true),
  });
}

/**
 * The answer to `message` when it is a greeting (a 2025 `initialize`, a
 * 2026 `server/discover`), as the dispatcher answers it; undefined for any
 * other message.
 */
export function greetingAnswer(
  message: McpMessage,
  settings: McpGreetingSettings,
): JsonRpcResponse | undefined {
  if (message.kind !== 'request') {
    return undefined;
  }
  if (message.revision === '2025' && message.method === 'initialize') {
    const result = initializeResult(settings, message.params.protocolVersion);
    return { jsonrpc: '2.0', id: message.id, result };
  }
  if (message.revision === '2026' && message.method === 'server/discover') {
    return { jsonrpc: '2.0', id: message.id, result: discoverResult(settings) };
  }
  return undefined;
}
