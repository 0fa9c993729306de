import type { INestApplicationContext } from '@nestjs/common';
import { MCP_SETTINGS, type McpSettings } from '../../options/mcp-settings.js';
import {
  discoverResult,
  initializeResult,
  type McpGreetingSettings,
} from '../../protocol/greeting.js';
import { McpToolCatalogue } from '../../tools/mcp-tool.catalogue.js';
import { McpGreeting } from '../../protocol/mcp-greeting.js';
import { McpProtocol } from '../../protocol/mcp-protocol.js';
import type { McpStdioServer } from '../../transports/stdio/stdio-options.js';
import { listPrincipalOf } from '../../auth/outer-authenticator.js';
import { StartFailure } from '../cli-app.runner.js';
import { type ContextOptions, contextHeaders } from '../cli-options.js';

/**
 * What serves the `mcp` command's session in the started app: its
 * protocol layer, the context of every call, its longest line. `greeting`, what
 * the session answered before the app had loaded, must be what the app
 * answers: otherwise the command ends, naming both (on stderr). `command`
 * is the class the app's `authGuard` sees as the handler's.
 */
export async function stdioServer(
  app: INestApplicationContext,
  options: ContextOptions,
  greeting: McpGreetingSettings | undefined,
  name: string,
  command: Function,
): Promise<McpStdioServer> {
  const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
  if (greeting !== undefined) {
    checkGreeting(
      greeting,
      app.get(McpGreeting, { strict: false }).get(),
      name,
    );
  }
  app.get(McpToolCatalogue, { strict: false }).prepare();
  const headers = contextHeaders(options);
  return {
    protocol: app.get(McpProtocol, { strict: false }),
    caller: {
      headers,
      // Under toolListPerCaller, the list is that of the principal the
      // module's authGuard makes of --authorization, as at the HTTP
      // endpoint; each call is judged by its own guards either way.
      principal: await listPrincipalOf(app, headers, command),
      locale: options.locale,
      timeout: options.timeout,
    },
    maxMessageSize: settings.maxBodySize,
  };
}

/** Throws, on stderr, when the early greeting is not what the app answers. */
function checkGreeting(
  early: McpGreetingSettings,
  settings: McpGreetingSettings,
  name: string,
): void {
  const text = (s: McpGreetingSettings) =>
    JSON.stringify([initializeResult(s, undefined), discoverResult(s)]);
  if (text(early) === text(settings)) {
    return;
  }
  const fields = (s: McpGreetingSettings) =>
    JSON.stringify({
      serverName: s.serverName,
      serverVersion: s.serverVersion,
      instructions: s.instructions,
      cacheTtl: s.cacheTtl,
      features: s.features,
      taskSupport: s.taskSupport,
    });
  const message = `runCli's server options answered initialize and server/discover before the app had loaded with ${fields(early)}, but the app answers with ${fields(settings)}: give runCli's server the app's values (McpModule's options, as features what the app serves beyond tools, and taskSupport when operations run as tasks)`;
  process.stderr.write(`${name}: ${message}\n`);
  throw new StartFailure(new Error(message));
}
