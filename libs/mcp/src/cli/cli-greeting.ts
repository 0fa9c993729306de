import {
  serverDefaults,
  greetingSettings,
} from '../options/server-identity.js';
import {
  MCP_SERVER_FEATURES,
  type McpGreetingSettings,
} from '../protocol/greeting.js';
import type { McpCliServerOptions } from './mcp-cli-options.interface.js';

/**
 * The greeting the `mcp` command answers before the app has loaded: from
 * `runCli`'s `server` and the `package.json` above the main script, as
 * McpModule would make it of the same options.
 */
export function earlyGreeting(
  server: McpCliServerOptions = {},
): McpGreetingSettings {
  const settings = greetingSettings(server, serverDefaults(undefined));
  const features = MCP_SERVER_FEATURES.filter((feature) =>
    server.features?.includes(feature),
  );
  return {
    ...settings,
    ...(features.length > 0 ? { features } : {}),
    ...(server.taskSupport ? { taskSupport: true } : {}),
  };
}
