import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { CLI_EXIT, runCli } from '@nestops/mcp/cli';
import { Operation } from '@nestops/operations';
import { IsString } from 'class-validator';

/**
 * Rules of `runCli` that each held against one broken line, run in this
 * process with `exit: false`: `invoke` runs only operations exposed on the
 * command line, holds the input to the module's `inputLimits`, and the app
 * is closed (its shutdown hooks done) before `runCli` returns.
 */

class TextDto {
  @IsString()
  text: string;
}

@Injectable()
class CliOperations {
  readonly ran: string[] = [];

  @Operation({
    id: 'cli.echo',
    description: 'Echoes the text.',
    readOnly: true,
    input: TextDto,
  })
  echo(input: TextDto): { text: string } {
    this.ran.push('cli.echo');
    return { text: input.text };
  }

  @Operation({
    id: 'mcp.only',
    description: 'Runs on MCP only.',
    readOnly: true,
    expose: ['mcp'],
  })
  mcpOnly(): { ran: true } {
    this.ran.push('mcp.only');
    return { ran: true };
  }
}

/** Its shutdown hook finishes a turn of the event loop after it starts. */
@Injectable()
class SlowShutdown implements OnApplicationShutdown {
  done = false;

  async onApplicationShutdown(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.done = true;
  }
}

/** The instances of the last app the module booted (runCli closes it). */
const seen: { operations?: CliOperations; shutdown?: SlowShutdown } = {};

@Injectable()
class Witness {
  constructor(operations: CliOperations, shutdown: SlowShutdown) {
    seen.operations = operations;
    seen.shutdown = shutdown;
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'cli-rules',
      inputLimits: { maxStringLength: 5 },
    }),
  ],
  providers: [CliOperations, SlowShutdown, Witness],
})
class CliRulesModule {}

const run = (...argv: string[]) =>
  runCli(CliRulesModule, { name: 'cli-rules', argv, exit: false });

describe('runCli invoke and shutdown, in process', () => {
  beforeEach(() => {
    seen.operations = undefined;
    seen.shutdown = undefined;
  });

  it('refuses to invoke an operation not exposed on the command line (64), without running it', async () => {
    expect(await run('invoke', 'mcp.only')).toBe(CLI_EXIT.usage);
    expect(seen.operations?.ran).toEqual([]);
  });

  it("holds invoke's input to the module's inputLimits", async () => {
    expect(await run('invoke', 'cli.echo', '{"text":"12345"}')).toBe(
      CLI_EXIT.ok,
    );
    expect(seen.operations?.ran).toEqual(['cli.echo']);

    expect(await run('invoke', 'cli.echo', '{"text":"123456"}')).toBe(
      CLI_EXIT.failed,
    );
    expect(seen.operations?.ran).toEqual([]);
  });

  it('has closed the app, shutdown hooks included, when it returns', async () => {
    expect(await run('operations')).toBe(CLI_EXIT.ok);
    expect(seen.shutdown?.done).toBe(true);
  });
});
