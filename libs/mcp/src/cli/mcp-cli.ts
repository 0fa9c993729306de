import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import {
  type AppSetup,
  type OperationDefinition,
  OperationInvoker,
  OperationMessages,
  OperationRegistry,
} from '@nestops/operations';
import { Command, CommanderError, Option } from 'commander';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver.js';
import { McpDispatcher } from '../mcp.dispatcher.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { McpStdioSession } from '../transports/mcp-stdio.session.js';
import { createCliApplication, type RootModule } from './cli-application.js';
import {
  type ContextOptions,
  contextHeaders,
  parseCredentials,
  parseIdentifier,
  parseInput,
  parseLocale,
  parseTimeout,
} from './cli-options.js';
import { claimStdout, type ProtocolOutput } from './protocol-output.js';

/** How `runCli` runs. */
export interface McpCliOptions<A extends INestApplication = INestApplication> {
  /**
   * The program's name in usage lines and help (default: `cli`), and the
   * server's `serverInfo.name` on stdio where McpModule's `serverName` is
   * not set (default there: the `name` of the app's `package.json`).
   */
  readonly name?: string;
  /**
   * The setup function the app's `main.ts` applies (global guards, pipes,
   * interceptors, filters): given, the app is created as `main.ts` creates
   * it (`NestFactory.create()`, with `@nestjs/platform-express`), `setup`
   * is applied, and it is initialised without listening, so that
   * `invoke` and `mcp` calls meet the same guards as HTTP requests. Without
   * it, the app boots as an application context, and what `main.ts` sets
   * on the application does not apply.
   */
  readonly setup?: AppSetup<A>;
  /** The command line, without `node` and the script. Default: `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Exit the process with the command's exit code once it is done. Default: true. */
  readonly exit?: boolean;
}

/** Exit codes: success, an operation failure, bad usage (`EX_USAGE`), and a failed start. */
export const CLI_EXIT = Object.freeze({
  ok: 0,
  failed: 1,
  usage: 64,
  software: 70,
});

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
 * @returns the exit code (the process exits with it unless `exit: false`).
 * @publicApi
 */
export async function runCli<A extends INestApplication = INestApplication>(
  rootModule: RootModule,
  options: McpCliOptions<A> = {},
): Promise<number> {
  const code = await new McpCli(rootModule, options).run(
    options.argv ?? process.argv.slice(2),
  );
  if (options.exit !== false) {
    await Promise.all([flush(process.stdout), flush(process.stderr)]);
    process.exit(code);
  }
  return code;
}

class McpCli<A extends INestApplication> {
  private code: number = CLI_EXIT.ok;
  private readonly name: string;

  constructor(
    private readonly rootModule: RootModule,
    private readonly options: McpCliOptions<A>,
  ) {
    this.name = options.name ?? 'cli';
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
    return this.code;
  }

  private program(): Command {
    const program = new Command(this.name)
      .description("Runs this application's operations from the command line.")
      .exitOverride()
      .configureOutput({ outputError: () => undefined })
      .showHelpAfterError(false);
    program
      .command('operations')
      .description(
        'List every operation with its tool name, carriers and permissions.',
      )
      .option('--json', 'print JSON for scripts')
      .action((opts: { json?: boolean }) =>
        this.withApp((app, out) => this.operations(app, out, opts.json)),
      );
    withContextOptions(
      program
        .command('invoke')
        .description(
          'Run one operation: the result JSON on stdout, or <CODE>: <message> on stderr and exit 1.',
        )
        .argument('<operation-id>', 'the operation, e.g. orders.create')
        .argument('[json]', 'its input, a JSON object', parseInput),
    ).action(
      (
        id: string,
        input: Record<string, unknown> | undefined,
        opts: ContextOptions,
      ) => this.withApp((app, out) => this.invoke(app, out, id, input, opts)),
    );
    withContextOptions(
      program
        .command('mcp')
        .description(
          'Serve MCP on stdin/stdout, one JSON-RPC message per line, until stdin closes.',
        ),
    ).action((opts: ContextOptions) =>
      this.withApp((app, out) => this.mcp(app, out, opts)),
    );
    return program;
  }

  /** Boots the app with stdout kept for the command's output, runs `command`, closes the app. */
  private async withApp(
    command: (
      app: INestApplicationContext,
      out: ProtocolOutput,
    ) => Promise<number>,
  ): Promise<void> {
    const out = claimStdout();
    let app: INestApplicationContext | undefined;
    try {
      try {
        app = await createCliApplication(this.rootModule, {
          serverName: this.options.name,
          setup: this.options.setup,
        });
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

  private operations(
    app: INestApplicationContext,
    out: ProtocolOutput,
    json = false,
  ): Promise<number> {
    const catalogue = app.get(McpToolCatalogue, { strict: false });
    const rows = app
      .get(OperationRegistry, { strict: false })
      .list()
      .map((operation: OperationDefinition) => ({
        id: operation.id,
        tool: operation.expose.includes('mcp')
          ? (catalogue.nameOf(operation.id) ?? null)
          : null,
        carriers: [...operation.expose],
        permissions: [...operation.permissions],
        readOnly: operation.semantics.readOnly,
        stability: operation.stability,
      }));
    out.write(
      json
        ? `${JSON.stringify(rows, null, 2)}\n`
        : table([
            ['OPERATION', 'TOOL', 'CARRIERS', 'PERMISSIONS'],
            ...rows.map((row) => [
              row.id,
              row.tool ?? '-',
              row.carriers.join(',') || '-',
              row.permissions.join(',') || '-',
            ]),
          ]),
    );
    return Promise.resolve(CLI_EXIT.ok);
  }

  private async invoke(
    app: INestApplicationContext,
    out: ProtocolOutput,
    id: string,
    input: Record<string, unknown> = {},
    options: ContextOptions,
  ): Promise<number> {
    const operation = app.get(OperationRegistry, { strict: false }).get(id);
    if (!operation || !operation.expose.includes('cli')) {
      process.stderr.write(
        `${this.name}: ${operation ? `operation '${id}' is not exposed on the command line` : `unknown operation '${id}'`}; '${this.name} operations' lists them\n`,
      );
      return CLI_EXIT.usage;
    }
    const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
    const messages = app.get(OperationMessages, { strict: false });
    const locale = messages.localeOf(options.locale);
    const result = await app
      .get(OperationInvoker, { strict: false })
      .invoke(id, {
        carrier: 'cli',
        target: id,
        headers: contextHeaders(options),
        input,
        locale,
        timeout: options.timeout,
        inputLimits: settings.inputLimits,
      });
    if (!result.ok) {
      process.stderr.write(`${messages.describe(result.failure, locale)}\n`);
      return CLI_EXIT.failed;
    }
    out.write(`${JSON.stringify(result.value ?? null, null, 2)}\n`);
    return CLI_EXIT.ok;
  }

  private async mcp(
    app: INestApplicationContext,
    out: ProtocolOutput,
    options: ContextOptions,
  ): Promise<number> {
    const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
    app.get(McpToolCatalogue, { strict: false }).prepare();
    const session = new McpStdioSession(
      app.get(McpDispatcher, { strict: false }),
      {
        input: process.stdin,
        output: out,
        caller: {
          headers: contextHeaders(options),
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

/** Adds the context options of a call to `command`. */
function withContextOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--authorization <credentials>',
        "credentials, '<scheme> <value>'",
      )
        .env('MCP_AUTHORIZATION')
        .argParser(parseCredentials),
    )
    .addOption(
      new Option('--tenant <id>', 'the tenant of every call').argParser(
        parseIdentifier,
      ),
    )
    .addOption(
      new Option(
        '--correlation <id>',
        'the correlation id of every call',
      ).argParser(parseIdentifier),
    )
    .addOption(
      new Option(
        '--locale <locale>',
        'language of titles, descriptions and failure texts, e.g. zh-CN',
      ).argParser(parseLocale),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'limit of each call, in seconds',
      ).argParser(parseTimeout),
    );
}

/** Left-aligned columns, two spaces apart. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) =>
    Math.max(...rows.map((row) => row[column].length)),
  );
  return rows
    .map(
      (row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
