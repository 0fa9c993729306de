import { Injectable, Module } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { KeylessModule } from '../fixtures/asking-fixtures';
import { createApp } from '../support/start-app';

/** What stops an app that asks its client before it serves a call. */

async function startupError(module: object): Promise<string> {
  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  try {
    app = await createApp(module as never);
    await app.init();
  } catch (error) {
    return (error as Error).message;
  } finally {
    await app?.close().catch(() => undefined);
  }
  return 'started';
}

describe('an app whose operations ask their client', () => {
  it('stops without a key to seal a 2026 question, naming the operation and the fix', async () => {
    expect(await startupError(KeylessModule)).toBe(
      "McpModule: 'items.delete' asks its client (its @Operation says confirm, elicits or requires), and a 2026-07-28 client answers by coming back with a sealed requestState: set asking.stateKeys to one or more secrets of at least 32 characters (openssl rand -base64 32), the same on every instance.",
    );
  });

  it("stops under asking.confirm: 'destructive' for any destructive operation", async () => {
    @Injectable()
    class Removals {
      @Operation({ id: 'notes.remove', input: null })
      remove(): { removed: true } {
        return { removed: true };
      }
    }
    @Module({
      imports: [McpModule.forRoot({ asking: { confirm: 'destructive' } })],
      providers: [Removals],
    })
    class RemovalsModule {}
    expect(await startupError(RemovalsModule)).toMatch(
      /^McpModule: 'notes\.remove' asks its client \(asking\.confirm is 'destructive'\)/,
    );
  });

  it.each([
    [
      { stateKeys: ['short'] },
      /asking\.stateKeys must be a list of secrets of at least 32 characters/,
    ],
    [
      { stateTtl: 0 },
      /asking\.stateTtl must be a positive whole number of milliseconds/,
    ],
    [
      { confirm: 'always' },
      /asking\.confirm must be 'destructive' or left out/,
    ],
  ])('refuses asking %o', async (asking, message) => {
    @Module({ imports: [McpModule.forRoot({ asking: asking as never })] })
    class BadOptionsModule {}
    expect(await startupError(BadOptionsModule)).toMatch(message);
  });
});
