import type { INestApplicationContext } from '@nestjs/common';
import type { Command } from 'commander';
import { MCP_SETTINGS, type McpSettings } from '../../mcp-options.resolver.js';
import { McpDispatcher } from '../../mcp.dispatcher.js';
import { McpToolCatalogue } from '../../tools/mcp-tool.catalogue.js';
import { McpStdioSession } from '../../transports/mcp-stdio.session.js';
import {
  McpAuthGuardRef,
  OuterAuthenticator,
} from '../../transports/outer-authenticator.js';
import type { CliAppRunner } from '../cli-app.runner.js';
import { CLI_EXIT } from '../cli-exit.js';
import {
  type ContextOptions,
  contextHeaders,
  withContextOptions,
} from '../cli-options.js';
import type { ProtocolOutput } from '../protocol-output.js';
import type { CliCommand } from './cli-command.interface.js';

/** `mcp`: an MCP server on stdin/stdout, one JSON-RPC message per line, until stdin closes. */
export class McpCommand implements CliCommand {
  constructor(private readonly runner: CliAppRunner) {}

  load(program: Command): void {
    withContextOptions(
      program
        .command('mcp')
        .description(
          'Serve MCP on stdin/stdout, one JSON-RPC message per line, until stdin closes.',
        ),
    ).action((opts: ContextOptions) =>
      this.runner.run((app, out) => this.mcp(app, out, opts)),
    );
  }

  private async mcp(
    app: INestApplicationContext,
    out: ProtocolOutput,
    options: ContextOptions,
  ): Promise<number> {
    const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
    app.get(McpToolCatalogue, { strict: false }).prepare();
    const headers = contextHeaders(options);
    const session = new McpStdioSession(
      app.get(McpDispatcher, { strict: false }),
      {
        input: process.stdin,
        output: out,
        caller: {
          headers,
          // Under toolListPerCaller, the list is that of the principal the
          // module's authGuard makes of --authorization, as at the HTTP
          // endpoint; each call is judged by its own guards either way.
          principal: settings.toolListPerCaller
            ? await new OuterAuthenticator(
                await app.get(McpAuthGuardRef, { strict: false }).resolve(),
                settings.serverName,
                McpCommand,
              ).principalOf(headers)
            : undefined,
          locale: options.locale,
          timeout: options.timeout,
        },
        maxMessageSize: settings.maxBodySize,
      },
    );
    await session.run();
    return CLI_EXIT.ok;
  }
}
