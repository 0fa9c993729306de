import type { INestApplicationContext } from '@nestjs/common';
import type { Command } from 'commander';
import type { McpGreetingSettings } from '../../protocol/greeting.js';
import { McpStdioSession } from '../../transports/stdio/mcp-stdio.session.js';
import type { McpStdioServer } from '../../transports/stdio/stdio-options.js';
import type { CliAppRunner } from '../cli-app.runner.js';
import { CLI_EXIT } from '../cli-exit.js';
import { type ContextOptions, withContextOptions } from '../cli-options.js';
import type { CliCommand } from './cli-command.interface.js';

/**
 * How long the session waits for a first message before it loads the app
 * anyway (a client that sends nothing at first then finds it loaded).
 */
const IDLE_START_MS = 100;

/**
 * `mcp`: an MCP server on stdin/stdout, one JSON-RPC message per line, until
 * stdin closes. Given a greeting (runCli's loader form), it answers
 * `initialize` and `server/discover` before the app has loaded; every other
 * message waits for the app.
 */
export class McpCommand implements CliCommand {
  constructor(
    private readonly runner: CliAppRunner,
    private readonly greeting?: McpGreetingSettings,
  ) {}

  load(program: Command): void {
    withContextOptions(
      program
        .command('mcp')
        .description(
          'Serve MCP on stdin/stdout, one JSON-RPC message per line, until stdin closes.',
        ),
    ).action((opts: ContextOptions) =>
      this.runner.runLazily(async (start, out) => {
        const session = McpStdioSession.starting(
          () => this.server(start, opts),
          { input: process.stdin, output: out, greeting: this.greeting },
        );
        if (this.greeting === undefined) {
          session.startServer();
        } else {
          setTimeout(() => session.startServer(), IDLE_START_MS).unref();
        }
        await session.run();
        return CLI_EXIT.ok;
      }),
    );
  }

  /** The app's protocol layer and the context of the session's calls, once the app has started. */
  private async server(
    start: () => Promise<INestApplicationContext>,
    options: ContextOptions,
  ): Promise<McpStdioServer> {
    const app = await start();
    const { stdioServer } = await import('./mcp-stdio.server.js');
    return stdioServer(
      app,
      options,
      this.greeting,
      this.runner.name,
      McpCommand,
    );
  }
}
