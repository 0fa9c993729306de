import type { INestApplicationContext } from '@nestjs/common';
import type { OperationDefinition } from '@nestops/operations';
import type { Command } from 'commander';
import type { CliAppRunner } from '../cli-app.runner.js';
import { CLI_EXIT } from '../cli-exit.js';
import type { ProtocolOutput } from '../protocol-output.js';
import type { CliCommand } from './cli-command.interface.js';

/**
 * `operations [--json]`: every operation, its tool name, carriers,
 * permissions and, when MCP reads it as a resource, its URI; then every MCP
 * prompt, its arguments and permissions.
 */
export class OperationsCommand implements CliCommand {
  constructor(private readonly runner: CliAppRunner) {}

  load(program: Command): void {
    program
      .command('operations')
      .description(
        'List every operation with its tool name, carriers, permissions and resource URI, then every prompt.',
      )
      .option('--json', 'print JSON for scripts')
      .action((opts: { json?: boolean }) =>
        this.runner.run((app, out) => this.list(app, out, opts.json)),
      );
  }

  private async list(
    app: INestApplicationContext,
    out: ProtocolOutput,
    json = false,
  ): Promise<number> {
    const [{ OperationRegistry }, { McpToolCatalogue }, { promptRows }] =
      await Promise.all([
        import('./operations-api.js'),
        import('../../tools/mcp-tool.catalogue.js'),
        import('../../prompts/prompt-rows.js'),
      ]);
    const prompts = promptRows(app);
    const catalogue = app.get(McpToolCatalogue, { strict: false });
    const rows = app
      .get(OperationRegistry, { strict: false })
      .list()
      .map((operation: OperationDefinition) => ({
        id: operation.id,
        tool: operation.expose.includes('mcp')
          ? (catalogue.nameOf(operation.id) ?? null)
          : null,
        resource: operation.asResource?.uri ?? null,
        carriers: [...operation.expose],
        permissions: [...operation.permissions],
        readOnly: operation.semantics.readOnly,
        stability: operation.stability,
      }));
    out.write(
      json
        ? `${JSON.stringify([...rows, ...prompts], null, 2)}\n`
        : table([
            ['OPERATION', 'TOOL', 'CARRIERS', 'PERMISSIONS', 'RESOURCE'],
            ...rows.map((row) => [
              row.id,
              row.tool ?? '-',
              row.carriers.join(',') || '-',
              row.permissions.join(',') || '-',
              row.resource ?? '-',
            ]),
          ]) +
            (prompts.length === 0
              ? ''
              : `\n${table([
                  ['PROMPT', 'ARGUMENTS', 'PERMISSIONS'],
                  ...prompts.map((row) => [
                    row.prompt,
                    row.arguments
                      .map((a) => `${a.name}${a.required ? '' : '?'}`)
                      .join(',') || '-',
                    row.permissions.join(',') || '-',
                  ]),
                ])}`),
    );
    return CLI_EXIT.ok;
  }
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
