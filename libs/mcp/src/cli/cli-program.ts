import type { INestApplication } from '@nestjs/common';
import { Command, CommanderError } from 'commander';
import { CliAppRunner } from './cli-app.runner.js';
import { createCliApplication, type RootModule } from './cli-application.js';
import { CLI_EXIT } from './cli-exit.js';
import type { CliCommand } from './commands/cli-command.interface.js';
import { InvokeCommand } from './commands/invoke.command.js';
import { McpCommand } from './commands/mcp.command.js';
import { OperationsCommand } from './commands/operations.command.js';
import type { McpCliOptions } from './mcp-cli-options.interface.js';

/** The program of `runCli`: its commands, and the exit code of one command line. */
export class CliProgram<A extends INestApplication> {
  private readonly name: string;
  private readonly runner: CliAppRunner;

  constructor(rootModule: RootModule, options: McpCliOptions<A>) {
    this.name = options.name ?? 'cli';
    this.runner = new CliAppRunner(this.name, () =>
      createCliApplication(rootModule, {
        serverName: options.name,
        setup: options.setup,
      }),
    );
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
      new McpCommand(this.runner),
    ];
    for (const command of commands) {
      command.load(program);
    }
    return program;
  }
}
