import { Injectable, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import {
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import { OperationRefusedError } from '@nestops/operations/internal';
import { OperationTestClient } from '@nestops/operations/testing';
import {
  AcceptLanguageResolver,
  I18nContext,
  I18nLoader,
  I18nModule,
} from 'nestjs-i18n';
import { PassThrough } from 'node:stream';
import { CLI_EXIT } from './cli/cli-exit.js';
import { runCli } from './cli/mcp-cli.js';
import type { McpCallerContext } from './protocol/mcp-caller.context.js';
import { McpProtocol } from './protocol/mcp-protocol.js';
import { McpModule } from './mcp.module.js';
import { McpTestClient } from './testing/mcp-test-client.js';
import { McpToolCatalogue } from './tools/mcp-tool.catalogue.js';
import { McpStdioSession } from './transports/stdio/mcp-stdio.session.js';

/**
 * Every carrier of the MCP package calls operations through the one
 * invocation API, so each gets the same rules from it: the module's
 * `timeout` unless the carrier sets its own, one language for the call's
 * context and its failure text, and a refusal where the operation is not
 * exposed. Carriers: the dispatcher (which HTTP and stdio share, and over
 * a stdio session), the command line's
 * `invoke` (runCli in process), McpTestClient and OperationTestClient.
 */

class TwoLanguages extends I18nLoader {
  languages(): Promise<string[]> {
    return Promise.resolve(['en-US', 'zh-CN']);
  }

  load(): Promise<Record<string, Record<string, string>>> {
    return Promise.resolve({ 'en-US': {}, 'zh-CN': {} });
  }
}

/** What the last call saw. */
const seen: { locale?: string; i18n?: string; ran: string[] } = { ran: [] };

@Injectable()
class CarrierOperations {
  /** Ends only when its call's signal aborts. */
  @Operation({ input: null, id: 'slow.wait', readOnly: true })
  async wait(_input: unknown, context: InvocationContext): Promise<never> {
    seen.ran.push('slow.wait');
    await new Promise((aborted) =>
      context.signal.addEventListener('abort', aborted),
    );
    throw new Error('aborted');
  }

  /** Records the call's language, then is denied. */
  @Operation({ input: null, id: 'speech.denied', readOnly: true })
  denied(_input: unknown, context: InvocationContext): never {
    seen.locale = context.locale;
    seen.i18n = I18nContext.current()?.lang;
    throw new OperationException('SECURITY_DENIED_001');
  }

  @Operation({ id: 'cli.only', readOnly: true, expose: ['cli'] })
  cliOnly(): { ran: true } {
    seen.ran.push('cli.only');
    return { ran: true };
  }

  @Operation({ id: 'mcp.only', readOnly: true, expose: ['mcp'] })
  mcpOnly(): { ran: true } {
    seen.ran.push('mcp.only');
    return { ran: true };
  }
}

@Module({
  imports: [
    McpModule.forRoot({ serverName: 'carriers', timeout: 40 }),
    I18nModule.forRoot({
      fallbackLanguage: 'en-US',
      loaders: [new TwoLanguages()],
      resolvers: [AcceptLanguageResolver],
    }),
  ],
  providers: [CarrierOperations],
})
class CarriersModule {}

const timedOut = (seconds: number) =>
  `INTERNAL_TIMEOUT_001: The operation did not finish within ${seconds} s.`;
const CHINESE_DENIAL = 'SECURITY_DENIED_001: 拒绝访问。';

/** `tools/call` of `name` over a stdio session with `caller`: the result. */
async function overStdio(
  dispatcher: McpProtocol,
  caller: McpCallerContext,
  name: string,
): Promise<{ isError?: boolean; content: { text: string }[] }> {
  const input = new PassThrough();
  const lines: string[] = [];
  const session = new McpStdioSession(dispatcher, {
    input,
    output: { write: (text: string) => lines.push(text) },
    caller,
    maxMessageSize: 1_000_000,
  });
  const done = session.run();
  input.end(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } })}\n`,
  );
  await done;
  return (JSON.parse(lines[0]) as { result: never }).result;
}

/** runCli in process: its exit code and what it wrote to stderr. */
async function cli(...argv: string[]): Promise<{ code: number; err: string }> {
  const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
  try {
    const code = await runCli(CarriersModule, {
      name: 'carriers',
      argv,
      exit: false,
    });
    return { code, err: stderr.mock.calls.map(([text]) => text).join('') };
  } finally {
    stderr.mockRestore();
  }
}

describe('the carriers call through the one invocation API', () => {
  let moduleRef: TestingModule;
  let dispatcher: McpProtocol;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [CarriersModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    moduleRef.get(McpToolCatalogue).prepare();
    dispatcher = moduleRef.get(McpProtocol);
  });
  afterAll(() => moduleRef?.close());
  beforeEach(() => {
    seen.ran = [];
    seen.locale = undefined;
    seen.i18n = undefined;
  });

  describe("the module's timeout, unless the carrier sets one", () => {
    it('McpTestClient', async () => {
      expect(
        await McpTestClient.create(moduleRef).callTool('slow_wait'),
      ).toEqual({
        content: [{ type: 'text', text: timedOut(0.04) }],
        isError: true,
      });
    });

    it('a stdio session, and its --timeout', async () => {
      expect(
        await overStdio(dispatcher, { headers: {} }, 'slow_wait'),
      ).toMatchObject({ isError: true, content: [{ text: timedOut(0.04) }] });
      expect(
        await overStdio(dispatcher, { headers: {}, timeout: 20 }, 'slow_wait'),
      ).toMatchObject({ isError: true, content: [{ text: timedOut(0.02) }] });
    });

    it("the command line's invoke, and its --timeout", async () => {
      expect(await cli('invoke', 'slow.wait')).toEqual({
        code: CLI_EXIT.failed,
        err: expect.stringContaining(`${timedOut(0.04)}\n`) as string,
      });
      expect(await cli('invoke', 'slow.wait', '--timeout', '0.02')).toEqual({
        code: CLI_EXIT.failed,
        err: expect.stringContaining(`${timedOut(0.02)}\n`) as string,
      });
    });

    it('OperationTestClient, and its own timeout', async () => {
      const client = OperationTestClient.create(moduleRef);

      expect(await client.invoke('slow.wait')).toMatchObject({
        ok: false,
        text: timedOut(0.04),
      });
      expect(
        await client.invoke('slow.wait', {}, { timeout: 20 }),
      ).toMatchObject({ ok: false, text: timedOut(0.02) });
    });
  });

  describe('one language for the call and its failure text', () => {
    it('McpTestClient, with Accept-Language sent twice', async () => {
      const result = await McpTestClient.create(moduleRef, {
        headers: { 'Accept-Language': ['fr', 'zh-CN'] },
      }).callTool('speech_denied');

      expect(seen).toMatchObject({ locale: 'zh-CN', i18n: 'zh-CN' });
      expect(result.content[0].text).toBe(CHINESE_DENIAL);
    });

    it('a stdio session with --locale', async () => {
      const result = await overStdio(
        dispatcher,
        { headers: {}, locale: 'zh' },
        'speech_denied',
      );

      expect(seen).toMatchObject({ locale: 'zh-CN', i18n: 'zh-CN' });
      expect(result.content[0].text).toBe(CHINESE_DENIAL);
    });

    it("the command line's invoke with --locale", async () => {
      const { code, err } = await cli(
        'invoke',
        'speech.denied',
        '--locale',
        'zh',
      );

      expect(code).toBe(CLI_EXIT.failed);
      expect(err).toContain(`${CHINESE_DENIAL}\n`);
    });

    it('OperationTestClient, with quality values', async () => {
      const result = await OperationTestClient.create(moduleRef, {
        headers: { 'Accept-Language': 'zh;q=0.9, en;q=0.8' },
      }).invoke('speech.denied');

      expect(seen).toMatchObject({ locale: 'zh-CN', i18n: 'zh-CN' });
      expect(result).toMatchObject({ ok: false, text: CHINESE_DENIAL });
    });
  });

  describe('a refusal where the operation is not exposed, and nothing runs', () => {
    it('MCP: no tool for an operation exposed on the command line only', async () => {
      await expect(
        McpTestClient.create(moduleRef).callTool('cli_only'),
      ).rejects.toMatchObject({
        rpcCode: -32602,
        code: 'PROTOCOLS_NOTFOUND_002',
      });
      expect(seen.ran).toEqual([]);
    });

    it("the command line's invoke: a usage line and 64", async () => {
      const { code, err } = await cli('invoke', 'mcp.only');

      expect(code).toBe(CLI_EXIT.usage);
      expect(err).toContain(
        "carriers: operation 'mcp.only' is not exposed on the command line; 'carriers operations' lists them\n",
      );
      expect(seen.ran).toEqual([]);
    });

    it('OperationTestClient: OperationRefusedError', async () => {
      await expect(
        OperationTestClient.create(moduleRef, { carrier: 'mcp' }).invoke(
          'cli.only',
        ),
      ).rejects.toBeInstanceOf(OperationRefusedError);
      expect(seen.ran).toEqual([]);
    });
  });
});
