import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { statSync } from 'node:fs';
import { CLI_EXIT } from './cli-exit.js';
import { CliProgram } from './cli-program.js';
import type { McpCliOptions } from './mcp-cli-options.interface.js';

/**
 * The command line of a Nest application that imports `McpModule`: boots
 * it without an HTTP listener (with `setup`, as `main.ts` does) and runs
 * one command.
 *
 * - `operations [--json]`: every operation, its tool name, carriers and permissions.
 * - `invoke <operation-id> [json]`: one call through the same pipeline as
 *   every carrier (carrier `cli`); the result JSON on stdout and exit 0, or
 *   `<CODE>: <message>` on stderr and exit 1.
 * - `mcp`: an MCP server on stdin/stdout, one JSON-RPC message per line,
 *   until stdin closes.
 *
 * `invoke` and `mcp` take `--authorization '<scheme> <value>'` (or the
 * environment variable `MCP_AUTHORIZATION`; the option wins), `--tenant`,
 * `--correlation`, `--locale` and `--timeout <seconds>`, applied to every
 * call as the HTTP headers would be and judged by the app's own guards.
 * Invalid options print one usage line on stderr and exit 64. While a
 * command runs, everything but its output (Nest's logger included) is
 * written to stderr.
 *
 * ```ts
 * // src/cli.ts
 * import { runCli } from '@nestops/mcp';
 * import { AppModule } from './app.module';
 * import { setupApp } from './app.setup';
 *
 * void runCli(AppModule, { name: 'order-desk', setup: setupApp });
 * ```
 *
 * Given a loader of the root module instead (an arrow or async function,
 * one with no `prototype`, which a module class always has), and imported
 * from `@nestops/mcp/cli`, the program loads the app, Nest and the rest of
 * the library only when a command boots the app, and `mcp` answers
 * `initialize` and `server/discover` before that (from `server` and
 * `name`), so that a client's first answer comes within a few tens of
 * milliseconds of Node's own start; `setup` can load its code the same way:
 *
 * ```ts
 * // src/cli.ts
 * import { runCli } from '@nestops/mcp/cli';
 *
 * void runCli(() => import('./app.module.js').then((m) => m.AppModule), {
 *   name: 'order-desk',
 *   server: { instructions: 'Order desk' }, // as McpModule's options say
 *   setup: (app) => import('./app.setup.js').then((m) => m.setupApp(app)),
 * });
 * ```
 *
 * @param app the root module, or an arrow or async function that loads it.
 * @returns the exit code (the process exits with it unless `exit: false`).
 * @publicApi
 */
export async function runCli<A extends INestApplication = INestApplication>(
  app:
    | Type<unknown>
    | DynamicModule
    | (() => Promise<Type<unknown> | DynamicModule>),
  options: McpCliOptions<A> = {},
): Promise<number> {
  const code =
    options.cwd !== undefined && !enterAppFolder(options.cwd, options.name)
      ? CLI_EXIT.usage
      : await new CliProgram(app, options).run(
          options.argv ?? process.argv.slice(2),
        );
  if (options.exit !== false) {
    await Promise.all([flush(process.stdout), flush(process.stderr)]);
    process.exit(code);
  }
  return code;
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * Makes `cwd` the working directory, so that the app's relative paths (a
 * SQLite file, `.env`) resolve against its own folder whatever folder the
 * client started the process from; false, with a usage line on stderr,
 * when it is not a directory.
 */
function enterAppFolder(cwd: string, name = 'cli'): boolean {
  if (!isDirectory(cwd)) {
    process.stderr.write(
      `${name}: runCli's cwd ${JSON.stringify(cwd)} is not a directory (give the app's folder, e.g. join(__dirname, '..'))\n`,
    );
    return false;
  }
  process.chdir(cwd);
  return true;
}

function isDirectory(path: unknown): boolean {
  try {
    return typeof path === 'string' && statSync(path).isDirectory();
  } catch {
    return false;
  }
}
