import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpRedisSettings } from '../protocol/redis-answer-relay.js';

/** Where every channel name starts unless `channelPrefix` says otherwise. */
export const DEFAULT_CHANNEL_PREFIX = 'nestops:mcp:answers:';

/** A Redis URL as ioredis takes it. */
const REDIS_URL = /^rediss?:\/\/\S+$/;

/** The `redis` option with its defaults, or undefined; a bad one is a problem. */
export function resolveRedisOptions(
  redis: McpModuleOptions['redis'],
  problems: string[],
): McpRedisSettings | undefined {
  if (redis === undefined) {
    return undefined;
  }
  const { url, channelPrefix = DEFAULT_CHANNEL_PREFIX } = (
    typeof redis === 'string' ? { url: redis } : (redis ?? {})
  ) as { url?: unknown; channelPrefix?: unknown };
  if (typeof url !== 'string' || !REDIS_URL.test(url)) {
    problems.push(
      "redis must be a Redis URL ('redis://host:6379') or { url, channelPrefix? }",
    );
    return undefined;
  }
  if (typeof channelPrefix !== 'string' || channelPrefix === '') {
    problems.push('redis.channelPrefix must be a non-empty string');
    return undefined;
  }
  return Object.freeze({ url, channelPrefix });
}
