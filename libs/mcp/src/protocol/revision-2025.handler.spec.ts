import { Injectable, Module, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Operation } from '@nestops/operations';
import { IsString } from 'class-validator';
import {
  AcceptLanguageResolver,
  I18nLoader,
  I18nModule,
  type I18nTranslation,
} from 'nestjs-i18n';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { CallerLogging, McpCallerContext } from './mcp-caller.context.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.constants.js';
import { McpModule } from '../mcp.module.js';
import { resultValue } from './answer-text.js';
import { inProcessCall } from './call.spec-support.js';
import { McpSession } from './mcp-session.js';
import { Revision2025Handler } from './revision-2025.handler.js';
import { classifyMessage, type McpRequest } from './mcp-message.js';

/** Two languages, each with its own title for `desk.echo`. */
class DeskTexts extends I18nLoader {
  languages(): Promise<string[]> {
    return Promise.resolve(['en-US', 'zh-CN']);
  }

  load(): Promise<I18nTranslation> {
    return Promise.resolve({
      'en-US': { desk: { echo: { title: 'Echo' } } },
      'zh-CN': { desk: { echo: { title: '回声' } } },
    });
  }
}

class EchoDto {
  @IsString()
  text: string;
}

/** What ran, so a refused call can be seen not to run. */
const ran: string[] = [];

@Injectable()
class DeskOperations {
  @Operation({ id: 'desk.echo', readOnly: true, description: 'Echoes.' })
  echo(input: EchoDto): { text: string } {
    ran.push('desk.echo');
    return { text: input.text };
  }

  @Operation({ id: 'board.read', readOnly: true, description: 'Reads.' })
  read(): { board: string } {
    ran.push('board.read');
    return { board: 'empty' };
  }

  @Operation({ id: 'desk.shell', expose: ['cli'], description: 'CLI only.' })
  shell(): { ok: true } {
    ran.push('desk.shell');
    return { ok: true };
  }

  @Operation({ id: 'desk.secret', stability: 'internal' })
  secret(): { ok: true } {
    ran.push('desk.secret');
    return { ok: true };
  }
}

@Module({
  imports: [
    McpModule.forRoot({
      serverName: 'desk',
      serverVersion: '1.2.3',
      instructions: 'Use the desk.',
    }),
    I18nModule.forRoot({
      fallbackLanguage: 'en-US',
      loaders: [new DeskTexts()],
      resolvers: [AcceptLanguageResolver],
    }),
  ],
  providers: [DeskOperations],
})
class DeskModule {}

@Module({
  imports: [McpModule.forRoot({ serverName: 'bare', serverVersion: '0.1.0' })],
})
class BareModule {}

/** A 2025 request (no `_meta`), classified as a carrier classifies it. */
function legacyRequest(method: string, params?: object): McpRequest {
  const message = classifyMessage({
    jsonrpc: '2.0',
    id: 1,
    method,
    ...(params ? { params } : {}),
  });
  if (message.kind !== 'request' || message.revision !== '2025') {
    throw new Error(`Not a 2025 request: ${JSON.stringify(message)}`);
  }
  return message;
}

async function handlerOf(
  module: Type,
): Promise<[TestingModule, Revision2025Handler]> {
  const moduleRef = await Test.createTestingModule({
    imports: [module],
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return [moduleRef, moduleRef.get(Revision2025Handler)];
}

const ENGLISH: McpCallerContext = { headers: {} };
const CHINESE: McpCallerContext = { headers: { 'accept-language': 'zh' } };

describe('Revision2025Handler (the 2025 methods)', () => {
  let moduleRef: TestingModule;
  let handler: Revision2025Handler;

  beforeAll(async () => {
    [moduleRef, handler] = await handlerOf(DeskModule);
  });
  afterAll(() => moduleRef?.close());
  beforeEach(() => {
    ran.length = 0;
  });

  /** The result of a request, read as a client reads it. */
  const answer = async (
    method: string,
    params?: object,
    caller: McpCallerContext = ENGLISH,
    logging?: CallerLogging,
  ) =>
    resultValue(
      await handler.answer(
        inProcessCall(
          legacyRequest(method, params),
          caller,
          new McpSession(logging),
        ),
      ),
    );

  describe('initialize', () => {
    it.each(SUPPORTED_PROTOCOL_VERSIONS)(
      'echoes the 2025 revision the client asks for (%s)',
      async (version) => {
        expect(
          await answer('initialize', { protocolVersion: version }),
        ).toMatchObject({ protocolVersion: version });
      },
    );

    it.each([
      ['an older revision', '2024-11-05'],
      ['the 2026 revision, which initialize does not negotiate', '2026-07-28'],
      ['a version that is not a string', 20251125],
      ['no version', undefined],
    ])('answers the newest 2025 revision to %s', async (_case, version) => {
      expect(
        await answer('initialize', { protocolVersion: version }),
      ).toMatchObject({ protocolVersion: '2025-11-25' });
    });

    it('names the server, the tools capability and the instructions', async () => {
      expect(
        await answer('initialize', { protocolVersion: '2025-06-18' }),
      ).toEqual({
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: false }, logging: {} },
        serverInfo: { name: 'desk', version: '1.2.3' },
        instructions: 'Use the desk.',
      });
    });

    it('has no instructions member when the module sets none', async () => {
      const [bareRef, bare] = await handlerOf(BareModule);
      try {
        expect(
          resultValue(
            await bare.answer(
              inProcessCall(
                legacyRequest('initialize', { protocolVersion: '2025-11-25' }),
                ENGLISH,
              ),
            ),
          ),
        ).toEqual({
          protocolVersion: '2025-11-25',
          capabilities: { tools: { listChanged: false }, logging: {} },
          serverInfo: { name: 'bare', version: '0.1.0' },
        });
      } finally {
        await bareRef.close();
      }
    });
  });

  it('answers ping with an empty object', async () => {
    expect(await answer('ping')).toEqual({});
  });

  describe('tools/list', () => {
    const listed = async (caller: McpCallerContext) =>
      (await answer('tools/list', undefined, caller)) as {
        tools: { name: string; title?: string }[];
      };

    it('lists the MCP tools in discovery order, with no 2026 members', async () => {
      const list = await listed(ENGLISH);
      expect(Object.keys(list)).toEqual(['tools']);
      expect(list.tools.map((tool) => tool.name)).toEqual([
        'desk_echo',
        'board_read',
      ]);
    });

    it("writes the titles in the caller's language", async () => {
      const title = async (caller: McpCallerContext) =>
        (await listed(caller)).tools.find((tool) => tool.name === 'desk_echo')
          ?.title;
      expect(await title(ENGLISH)).toBe('Echo');
      expect(await title(CHINESE)).toBe('回声');
      expect(await title({ headers: {}, locale: 'zh-CN' })).toBe('回声');
      expect(await title(ENGLISH)).toBe('Echo');
    });
  });

  describe('tools/call', () => {
    it('calls the operation and answers a 2025 tool result', async () => {
      expect(
        await answer('tools/call', {
          name: 'desk_echo',
          arguments: { text: 'hi' },
        }),
      ).toEqual({
        content: [{ type: 'text', text: '{"text":"hi"}' }],
        structuredContent: { text: 'hi' },
      });
      expect(ran).toEqual(['desk.echo']);
    });

    it("takes missing arguments as {}: the operation's validation answers, not the protocol", async () => {
      const result = (await answer('tools/call', { name: 'desk_echo' })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/^VALIDATION_INVALID_001: /);
      expect(
        await answer('tools/call', { name: 'board_read', arguments: {} }),
      ).toMatchObject({ structuredContent: { board: 'empty' } });
    });

    it.each<[string, object, string, string]>([
      [
        'no name',
        { arguments: {} },
        'PROTOCOLS_VALIDATION_001',
        'Invalid params: tools/call needs a string "name".',
      ],
      [
        'a name that is not a string',
        { name: 7 },
        'PROTOCOLS_VALIDATION_001',
        'Invalid params: tools/call needs a string "name".',
      ],
      [
        'an unknown tool',
        { name: 'desk_nope' },
        'PROTOCOLS_NOTFOUND_002',
        'Unknown tool: "desk_nope".',
      ],
      [
        'an operation id instead of its tool name',
        { name: 'desk.echo', arguments: { text: 'hi' } },
        'PROTOCOLS_NOTFOUND_002',
        'Unknown tool: "desk.echo".',
      ],
      [
        'the name of an operation exposed on the command line only',
        { name: 'desk_shell' },
        'PROTOCOLS_NOTFOUND_002',
        'Unknown tool: "desk_shell".',
      ],
      [
        'the name of an internal operation',
        { name: 'desk_secret' },
        'PROTOCOLS_NOTFOUND_002',
        'Unknown tool: "desk_secret".',
      ],
      [
        'arguments that are an array',
        { name: 'desk_echo', arguments: [{ text: 'hi' }] },
        'PROTOCOLS_VALIDATION_003',
        'Invalid params: "arguments" must be an object.',
      ],
      [
        'arguments that are null',
        { name: 'desk_echo', arguments: null },
        'PROTOCOLS_VALIDATION_003',
        'Invalid params: "arguments" must be an object.',
      ],
      [
        'arguments that are a string',
        { name: 'desk_echo', arguments: '{"text":"hi"}' },
        'PROTOCOLS_VALIDATION_003',
        'Invalid params: "arguments" must be an object.',
      ],
    ])(
      'refuses %s with -32602 and runs nothing',
      async (_case, params, code, message) => {
        const refused = answer('tools/call', params);
        await expect(refused).rejects.toBeInstanceOf(McpProtocolError);
        await expect(refused).rejects.toMatchObject({
          rpcCode: -32602,
          code,
          message,
        });
        expect(ran).toEqual([]);
      },
    );
  });

  it.each([
    'server/discover',
    'resources/list',
    // The app has no prompt and nothing to complete.
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'notifications/initialized',
    'tools/List',
  ])('refuses %s with -32601', async (method) => {
    const refused = answer(method);
    await expect(refused).rejects.toBeInstanceOf(McpProtocolError);
    await expect(refused).rejects.toMatchObject({
      rpcCode: -32601,
      code: 'PROTOCOLS_NOTFOUND_001',
      message: `Method not found: ${JSON.stringify(method)}.`,
    });
  });

  describe('logging/setLevel', () => {
    it('keeps the level where the caller keeps it and answers {}', async () => {
      const logging = { level: undefined as string | undefined };
      expect(
        await answer(
          'logging/setLevel',
          { level: 'warning' },
          ENGLISH,
          logging,
        ),
      ).toEqual({});
      expect(logging.level).toBe('warning');
    });

    it('answers {} for a caller whose transport keeps no level', async () => {
      expect(await answer('logging/setLevel', { level: 'debug' })).toEqual({});
    });

    it.each([
      ['no level', {}],
      ['an unknown level', { level: 'verbose' }],
      ['a level in capitals', { level: 'DEBUG' }],
      ['a number', { level: 7 }],
    ])(
      'refuses %s with -32602, keeping the level set before',
      async (_case, params) => {
        const logging = { level: 'error' as string | undefined };
        const refused = answer('logging/setLevel', params, ENGLISH, logging);
        await expect(refused).rejects.toMatchObject({
          rpcCode: -32602,
          code: 'PROTOCOLS_VALIDATION_001',
          message:
            'Invalid params: logging/setLevel needs a "level", one of debug, info, notice, warning, error, critical, alert, emergency.',
        });
        expect(logging.level).toBe('error');
      },
    );
  });
});
