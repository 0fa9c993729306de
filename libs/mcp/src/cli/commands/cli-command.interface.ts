import type { Command } from 'commander';

/**
 * One command of the program, in a file of its own as `@nestjs/cli`'s
 * commands are: it adds itself (arguments, options, action) to the program.
 */
export interface CliCommand {
  load(program: Command): void;
}
