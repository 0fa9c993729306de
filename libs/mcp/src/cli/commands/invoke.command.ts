import type { INestApplicationContext } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import type { Command } from 'commander';
import type { CliAppRunner } from '../cli-app.runner.js';
import { CLI_EXIT } from '../cli-exit.js';
import {
  type ContextOptions,
  contextHeaders,
  parseInput,
  withContextOptions,
} from '../cli-options.js';
import type { ProtocolOutput } from '../protocol-output.js';
import type { CliCommand } from './cli-command.interface.js';

/**
 * `invoke <operation-id> [json]`: one call through the same pipeline as
 * every carrier (carrier `cli`); the result JSON on stdout and exit 0, or
 * `<CODE>: <message>` on stderr and exit 1. Of an `McpResult`, the
 * structured result as JSON and its text blocks go to stdout, a line
 * naming each other block (`image image/png, 68 bytes`) to stderr.
 */
export class InvokeCommand implements CliCommand {
  constructor(private readonly runner: CliAppRunner) {}

  load(program: Command): void {
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
      ) =>
        this.runner.run((app, out) => this.invoke(app, out, id, input, opts)),
    );
  }

  private async invoke(
    app: INestApplicationContext,
    out: ProtocolOutput,
    id: string,
    input: Record<string, unknown> = {},
    options: ContextOptions,
  ): Promise<number> {
    const { name } = this.runner;
    const { OperationInvoker, OperationRefusedError, McpResult, contentLine } =
      await import('./operations-api.js');
    let result: InvocationResult;
    try {
      result = await app.get(OperationInvoker, { strict: false }).invoke(id, {
        carrier: 'cli',
        target: id,
        headers: contextHeaders(options),
        input,
        locale: options.locale,
        timeout: options.timeout,
      });
    } catch (error) {
      if (!(error instanceof OperationRefusedError)) {
        throw error;
      }
      process.stderr.write(
        `${name}: ${error.reason === 'unknown' ? `unknown operation '${id}'` : `operation '${id}' is not exposed on the command line`}; '${name} operations' lists them\n`,
      );
      return CLI_EXIT.usage;
    }
    if (!result.ok) {
      process.stderr.write(`${result.text}\n`);
      return CLI_EXIT.failed;
    }
    const rich =
      result.carried instanceof McpResult ? result.carried : undefined;
    if (!rich || rich.structured !== undefined) {
      out.write(`${JSON.stringify(result.value, null, 2)}\n`);
    }
    // The other content: text on stdout, a line naming each other block on stderr.
    for (const block of rich?.content ?? []) {
      if (block.type === 'text') {
        out.write(`${block.text}\n`);
      } else {
        process.stderr.write(`${contentLine(block)}\n`);
      }
    }
    return CLI_EXIT.ok;
  }
}
