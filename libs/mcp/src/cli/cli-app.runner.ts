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
  run(command: AppCommand): Promise<void> {
    return this.runLazily(async (start, out) => command(await start(), out));
  }

  /**
   * Runs `command` with stdout kept for its output, and the app booted when
   * the command calls `start` (once; later calls share the boot); then
   * closes the app if it started. A failed boot is written on stderr once,
   * and the run ends with `CLI_EXIT.software`, whatever the command does
   * with the rejection.
   */
  async runLazily(command: LazyAppCommand): Promise<void> {
    const out = claimStdout();
    let boot: Promise<INestApplicationContext> | undefined;
    const start = () =>
      (boot ??= this.start().then(
        (app) => {
          flushCompileCache();
          return app;
        },
        (error: unknown) => {
          process.stderr.write(
            `${this.name}: the application did not start: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          throw new StartFailure(error);
        },
      ));
    try {
      this.code = await command(start, out);
    } catch (error) {
      if (!(error instanceof StartFailure)) {
        process.stderr.write(
          `${this.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      }
      this.code = CLI_EXIT.software;
    } finally {
      await boot?.then(
        (app) => app.close(),
        () => undefined,
      );
      out.restore();
    }
  }
}

/** A command's work that boots the app when it needs it (`start`); resolves to its exit code. */
export type LazyAppCommand = (
  start: () => Promise<INestApplicationContext>,
  out: ProtocolOutput,
) => Promise<number>;

/** The app did not start: already written on stderr. */
export class StartFailure extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'StartFailure';
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
