import type { INestApplication } from '@nestjs/common';
import { Command, CommanderError } from 'commander';
import { CliAppRunner } from './cli-app.runner.js';
import type { RootModule } from './cli-application.js';
import { CLI_EXIT } from './cli-exit.js';
import { earlyGreeting } from './cli-greeting.js';
import type { CliCommand } from './commands/cli-command.interface.js';
import { InvokeCommand } from './commands/invoke.command.js';
import { McpCommand } from './commands/mcp.command.js';
import { OperationsCommand } from './commands/operations.command.js';
import type {
  McpAppLoader,
  McpCliOptions,
} from './mcp-cli-options.interface.js';
import type { McpGreetingSettings } from '../protocol/greeting.js';

/** Whether `app` is a loader of the root module rather than the module. */
export function isAppLoader(
  app: RootModule | McpAppLoader,
): app is McpAppLoader {
  return typeof app === 'function' && !Object.hasOwn(app, 'prototype');
}

/**
 * The program of `runCli`: its commands, and the exit code of one command
 * line. It loads the app, Nest and the library's server only when a
 * command boots the app.
 */
export class CliProgram<A extends INestApplication> {
  private readonly name: string;
  private readonly runner: CliAppRunner;
  /** What `mcp` answers before the app has loaded; undefined: nothing. */
  private readonly greeting?: McpGreetingSettings;

  constructor(app: RootModule | McpAppLoader, options: McpCliOptions<A>) {
    this.name = options.name ?? 'cli';
    const lazy = isAppLoader(app);
    this.greeting = lazy ? earlyGreeting(options.server) : undefined;
    this.runner = new CliAppRunner(this.name, async () => {
      const rootModule = lazy ? await app() : app;
      const { createCliApplication } = await import('./cli-application.js');
      return createCliApplication(rootModule, { setup: options.setup });
    });
  }

  async run(argv: readonly string[]): Promise<number> {
    const program = this.program();
    try {
      await program.parseAsync([...argv], { from: 'user' });
    } catch (error) {
      if (!(error instanceof CommanderError)) {
        throw error;
      }
      if (error.exitCode === 0) {
        return CLI_EXIT.ok;
      }
      const command =
        program.commands.find((c) => c.name() === argv[0]) ?? program;
      process.stderr.write(
        `${this.name}: ${error.message.replace(/^error: /, '')} (usage: ${this.name}${command === program ? '' : ` ${command.name()}`} ${command.usage()})\n`,
      );
      return CLI_EXIT.usage;
    }
    return this.runner.code;
  }

  private program(): Command {
    const program = new Command(this.name)
      .description("Runs this application's operations from the command line.")
      .exitOverride()
      .configureOutput({ outputError: () => undefined })
      .showHelpAfterError(false);
    const commands: readonly CliCommand[] = [
      new OperationsCommand(this.runner),
      new InvokeCommand(this.runner),
      new McpCommand(this.runner, this.greeting),
    ];
    for (const command of commands) {
      command.load(program);
    }
    return program;
  }
}
