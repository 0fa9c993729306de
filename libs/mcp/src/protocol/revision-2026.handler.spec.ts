import { Injectable, Module, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Operation } from '@nestops/operations';
import {
  AcceptLanguageResolver,
  I18nLoader,
  I18nModule,
  type I18nTranslation,
} from 'nestjs-i18n';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { McpCallerContext } from './mcp-caller.context.js';
import { McpModule } from '../mcp.module.js';
import { resultValue } from './answer-text.js';
import { inProcessCall } from './call.spec-support.js';
import { classifyMessage, type McpRequest } from './mcp-message.js';
import { Revision2026Handler } from './revision-2026.handler.js';

/** `zeta.read` has a Chinese title, so the list differs between the languages. */
class ZetaTexts extends I18nLoader {
  languages(): Promise<string[]> {
    return Promise.resolve(['en-US', 'zh-CN']);
  }

  load(): Promise<I18nTranslation> {
    return Promise.resolve({
      'en-US': {},
      'zh-CN': { zeta: { read: { title: '读取' } } },
    });
  }
}

/** Discovered in the order zeta, alpha, Beta: not the order of their names. */
@Injectable()
class BoardOperations {
  @Operation({
    id: 'zeta.read',
    readOnly: true,
    title: 'Read',
    description: 'Reads.',
  })
  read(): number {
    return 42;
  }

  @Operation({ id: 'alpha.list', readOnly: true, description: 'Lists.' })
  list(): { items: string[] } {
    return { items: [] };
  }

  @Operation({ id: 'beta.get', readOnly: true, description: 'Gets.' })
  get(): { beta: true } {
    return { beta: true };
  }

  @Operation({ id: 'desk.shell', expose: ['cli'], description: 'CLI only.' })
  shell(): { ok: true } {
    return { ok: true };
  }
}

/** Two languages, the default cache lifetime, instructions. */
@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'board',
      serverVersion: '2.0.0',
      instructions: 'Read the board.',
      tools: { 'beta.get': 'Beta_get' },
    }),
    I18nModule.forRoot({
      fallbackLanguage: 'en-US',
      loaders: [new ZetaTexts()],
      resolvers: [AcceptLanguageResolver],
    }),
  ],
  providers: [BoardOperations],
})
class BoardModule {}

/** One language, results not to be cached, no instructions. */
@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'uncached',
      serverVersion: '0.0.1',
      cacheTtl: 0,
    }),
  ],
  providers: [BoardOperations],
})
class UncachedModule {}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026 request, classified (its `_meta` read) as a carrier classifies it. */
function modernRequest(method: string, params: object = {}): McpRequest {
  const message = classifyMessage({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: META },
  });
  if (message.kind !== 'request' || message.revision !== '2026') {
    throw new Error(`Not a 2026 request: ${JSON.stringify(message)}`);
  }
  return message;
}

interface ModernList {
  readonly resultType: string;
  readonly tools: readonly { readonly name: string; readonly title?: string }[];
  readonly ttlMs: number;
  readonly cacheScope: string;
  readonly _meta: unknown;
}

/** Every revision the server speaks, newest first. */
const SPOKEN = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
/** The `_meta` of every 2026 result of the server `name`. */
const serverInfo = (name: string, version: string) => ({
  'io.modelcontextprotocol/serverInfo': { name, version },
});

const ENGLISH: McpCallerContext = { headers: {} };
const CHINESE: McpCallerContext = { headers: { 'accept-language': 'zh-CN' } };

describe('Revision2026Handler (the 2026-07-28 methods)', () => {
  const modules: TestingModule[] = [];
  let board: Revision2026Handler;
  let uncached: Revision2026Handler;

  const handlerOf = async (module: Type): Promise<Revision2026Handler> => {
    const moduleRef = await Test.createTestingModule({
      imports: [module],
    }).compile();
    moduleRef.useLogger(false);
    modules.push(await moduleRef.init());
    return moduleRef.get(Revision2026Handler);
  };

  beforeAll(async () => {
    board = await handlerOf(BoardModule);
    uncached = await handlerOf(UncachedModule);
  });
  afterAll(() => Promise.all(modules.map((moduleRef) => moduleRef.close())));

  /** The result of a request, read as a client reads it. */
  const answer = async (
    handler: Revision2026Handler,
    method: string,
    params?: object,
    caller: McpCallerContext = ENGLISH,
  ) =>
    resultValue(
      await handler.answer(
        inProcessCall(modernRequest(method, params), caller),
      ),
    );

  describe('server/discover', () => {
    it('answers every spoken version, the tools capability, the instructions, the server and public cache hints', async () => {
      expect(await answer(board, 'server/discover')).toEqual({
        resultType: 'complete',
        supportedVersions: SPOKEN,
        capabilities: { tools: { listChanged: false }, logging: {} },
        instructions: 'Read the board.',
        _meta: serverInfo('board', '2.0.0'),
        ttlMs: 300_000,
        cacheScope: 'public',
      });
    });

    it('is the same whatever the caller and language', async () => {
      expect(
        await answer(
          board,
          'server/discover',
          {},
          {
            headers: { 'accept-language': 'zh-CN', authorization: 'x' },
          },
        ),
      ).toEqual(await answer(board, 'server/discover'));
    });

    it('keeps a cacheTtl of 0 as ttlMs 0, and has no instructions member when the module sets none', async () => {
      expect(await answer(uncached, 'server/discover')).toEqual({
        resultType: 'complete',
        supportedVersions: SPOKEN,
        capabilities: { tools: { listChanged: false }, logging: {} },
        _meta: serverInfo('uncached', '0.0.1'),
        ttlMs: 0,
        cacheScope: 'public',
      });
    });
  });

  describe('tools/list', () => {
    const list = async (
      handler: Revision2026Handler,
      caller: McpCallerContext = ENGLISH,
    ) => (await answer(handler, 'tools/list', {}, caller)) as ModernList;

    it('sorts the tools by name (code-unit order), whatever order they were discovered in', async () => {
      expect((await list(board)).tools.map((tool) => tool.name)).toEqual([
        'Beta_get',
        'alpha_list',
        'zeta_read',
      ]);
    });

    it("writes the titles in the caller's language, and is private since they differ", async () => {
      const english = await list(board);
      const chinese = await list(board, CHINESE);
      const title = (result: ModernList) =>
        result.tools.find((tool) => tool.name === 'zeta_read')?.title;
      expect(title(english)).toBe('Read');
      expect(title(chinese)).toBe('读取');
      expect(chinese.tools.map((tool) => tool.name)).toEqual(
        english.tools.map((tool) => tool.name),
      );
      for (const result of [english, chinese]) {
        expect(result).toMatchObject({
          resultType: 'complete',
          ttlMs: 300_000,
          cacheScope: 'private',
          _meta: serverInfo('board', '2.0.0'),
        });
      }
    });

    it('is public in a one-language app, and keeps a cacheTtl of 0 as ttlMs 0', async () => {
      expect(await list(uncached)).toMatchObject({
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'public',
      });
    });
  });

  describe('tools/call', () => {
    it('answers a 2026 tool result: structuredContent for any JSON value, resultType and server info', async () => {
      expect(await answer(board, 'tools/call', { name: 'zeta_read' })).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: '42' }],
        structuredContent: 42,
        _meta: serverInfo('board', '2.0.0'),
      });
    });

    it.each<[string, object, string]>([
      ['no name', { arguments: {} }, 'PROTOCOLS_VALIDATION_001'],
      ['an unknown tool', { name: 'zeta_write' }, 'PROTOCOLS_NOTFOUND_002'],
      [
        'the default name of a renamed tool',
        { name: 'beta_get' },
        'PROTOCOLS_NOTFOUND_002',
      ],
      [
        'the name of an operation exposed on the command line only',
        { name: 'desk_shell' },
        'PROTOCOLS_NOTFOUND_002',
      ],
      [
        'arguments that are an array',
        { name: 'zeta_read', arguments: [] },
        'PROTOCOLS_VALIDATION_003',
      ],
    ])('refuses %s with -32602, as in 2025', async (_case, params, code) => {
      const refused = answer(board, 'tools/call', params);
      await expect(refused).rejects.toBeInstanceOf(McpProtocolError);
      await expect(refused).rejects.toMatchObject({ rpcCode: -32602, code });
    });
  });

  it.each(['initialize', 'ping', 'resources/list', 'logging/setLevel'])(
    'refuses %s with -32601: the 2026 revision has no such method',
    async (method) => {
      const refused = answer(board, method);
      await expect(refused).rejects.toBeInstanceOf(McpProtocolError);
      await expect(refused).rejects.toMatchObject({
        rpcCode: -32601,
        code: 'PROTOCOLS_NOTFOUND_001',
        message: `Method not found: ${JSON.stringify(method)}.`,
      });
    },
  );
});
