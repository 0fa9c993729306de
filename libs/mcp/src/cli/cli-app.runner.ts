import type { INestApplicationContext } from '@nestjs/common';
import * as nodeModule from 'node:module';
import { CLI_EXIT } from './cli-exit.js';
import { claimStdout, type ProtocolOutput } from './protocol-output.js';

/** A command's work in the booted app; resolves to its exit code. */
export type AppCommand = (
  app: INestApplicationContext,
  out: ProtocolOutput,
) => Promise<number>;

/**
 * The boot every command shares: the app started with stdout kept for the
 * command's output, the command run in it, the app closed, and the exit
 * code the run ends with (a failed start or an unexpected error included).
 */
export class CliAppRunner {
  /** The exit code of the last command run. */
  code: number = CLI_EXIT.ok;

  constructor(
    /** The program's name, which starts its lines on stderr. */
    readonly name: string,
    private readonly start: () => Promise<INestApplicationContext>,
  ) {}

  /** Boots the app with stdout kept for the command's output, runs `command`, closes the app. */
  async run(command: AppCommand): Promise<void> {
    const out = claimStdout();
    let app: INestApplicationContext | undefined;
    try {
      try {
        app = await this.start();
        flushCompileCache();
      } catch (error) {
        process.stderr.write(
          `${this.name}: the application did not start: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        this.code = CLI_EXIT.software;
        return;
      }
      this.code = await command(app, out);
    } catch (error) {
      process.stderr.write(
        `${this.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      this.code = CLI_EXIT.software;
    } finally {
      await app?.close();
      out.restore();
    }
  }
}

/**
 * Writes Node's module compile cache now, when the app enabled one
 * (`module.enableCompileCache()`, Node 22.1 and newer) before it loaded:
 * everything the start needed is compiled by then, and an MCP client
 * usually ends the server with a signal, which writes nothing.
 */
function flushCompileCache(): void {
  (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
}
