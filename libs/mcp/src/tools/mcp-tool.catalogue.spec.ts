import { Injectable, Logger, Module, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Operation } from '@nestops/operations';
import { ContractError } from '@nestops/operations/internal';
import {
  AcceptLanguageResolver,
  I18nLoader,
  I18nModule,
  type I18nTranslation,
} from 'nestjs-i18n';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { McpModule } from '../mcp.module.js';
import { McpToolCatalogue } from './mcp-tool.catalogue.js';

type Texts = I18nTranslation;

/** An application catalogue held in memory: its languages are its keys. */
class MemoryTexts extends I18nLoader {
  constructor(private readonly texts: Texts) {
    super();
  }

  languages(): Promise<string[]> {
    return Promise.resolve(Object.keys(this.texts));
  }

  load(): Promise<Texts> {
    return Promise.resolve(this.texts);
  }
}

/** `board.read` has its texts from the decorator, the catalogue has zh-CN's title. */
const CATALOGUE: Texts = {
  'en-US': {
    desk: { echo: { title: 'Echo', description: 'Answers what it is given.' } },
  },
  'zh-CN': {
    desk: { echo: { title: '回声', description: '原样返回输入。' } },
    board: { read: { title: '读板' } },
  },
};

@Injectable()
class DeskOperations {
  @Operation({ id: 'desk.echo', readOnly: true, title: 'Decorator echo' })
  echo(): { ok: true } {
    return { ok: true };
  }

  @Operation({
    id: 'board.read',
    readOnly: true,
    title: 'Read the board',
    description: 'Reads the board.',
  })
  read(): { ok: true } {
    return { ok: true };
  }

  @Operation({ id: 'tenant-members.list' })
  members(): { ok: true } {
    return { ok: true };
  }

  @Operation({ id: 'desk.shell', expose: ['cli'], description: 'CLI only.' })
  shell(): { ok: true } {
    return { ok: true };
  }

  @Operation({ id: 'desk.secret', stability: 'internal' })
  secret(): { ok: true } {
    return { ok: true };
  }
}

/** Two operations that would both be the tool `desk_echo`. */
@Injectable()
class ClashingOperations {
  @Operation({ id: 'desk.echo', description: 'One.' })
  echo(): { ok: true } {
    return { ok: true };
  }

  @Operation({ id: 'desk.say', description: 'Two.' })
  say(): { ok: true } {
    return { ok: true };
  }
}

/** A testing module of `providers` under McpModule, with `texts` as its catalogue when given. */
async function start(
  providers: readonly Type[],
  options: McpModuleOptions = {},
  texts?: Texts,
): Promise<TestingModule> {
  @Module({
    imports: [
      McpModule.forRoot({ serverName: 'catalogue', ...options }),
      ...(texts
        ? [
            I18nModule.forRoot({
              fallbackLanguage: 'en-US',
              loaders: [new MemoryTexts(texts)],
              resolvers: [AcceptLanguageResolver],
            }),
          ]
        : []),
    ],
    providers: [...providers],
  })
  class CatalogueModule {}

  const moduleRef = await Test.createTestingModule({
    imports: [CatalogueModule],
  }).compile();
  moduleRef.useLogger(false);
  return moduleRef.init();
}

describe('McpToolCatalogue', () => {
  let moduleRef: TestingModule;
  let catalogue: McpToolCatalogue;

  beforeAll(async () => {
    moduleRef = await start(
      [DeskOperations],
      { tools: { 'tenant-members.list': 'members' } },
      CATALOGUE,
    );
    catalogue = moduleRef.get(McpToolCatalogue);
  });
  afterAll(() => moduleRef?.close());
  afterEach(() => vi.restoreAllMocks());

  const names = (locale: string) =>
    catalogue.tools(locale).map((tool) => tool.name);

  describe('names', () => {
    it('names a tool after its operation id with `_` for `.`, or as the tools option says', () => {
      expect(names('en-US')).toEqual(['desk_echo', 'board_read', 'members']);
      expect(catalogue.nameOf('desk.echo')).toBe('desk_echo');
      expect(catalogue.nameOf('tenant-members.list')).toBe('members');
    });

    it('publishes no tool for an operation not exposed on MCP or internal', () => {
      expect(names('en-US')).not.toContain('desk_shell');
      expect(names('en-US')).not.toContain('desk_secret');
      expect(catalogue.nameOf('desk.shell')).toBeUndefined();
      expect(catalogue.nameOf('desk.secret')).toBeUndefined();
    });

    it('lists in discovery order, and by name (code-unit order) for toolsByName', () => {
      expect(catalogue.toolsByName('en-US').map((tool) => tool.name)).toEqual([
        'board_read',
        'desk_echo',
        'members',
      ]);
      expect(names('zh-CN')).toEqual(names('en-US'));
    });
  });

  describe('titles and descriptions, per language', () => {
    const tool = (locale: string, name: string) =>
      catalogue.tools(locale).find((each) => each.name === name);

    it.each<[string, string, string, object]>([
      [
        "the catalogue's texts over the decorator's",
        'en-US',
        'desk_echo',
        { title: 'Echo', description: 'Answers what it is given.' },
      ],
      [
        "the catalogue's texts over the decorator's",
        'zh-CN',
        'desk_echo',
        { title: '回声', description: '原样返回输入。' },
      ],
      [
        "the decorator's texts, the language's catalogue having none",
        'en-US',
        'board_read',
        { title: 'Read the board', description: 'Reads the board.' },
      ],
      [
        "the catalogue's title, the decorator's description it lacks",
        'zh-CN',
        'board_read',
        { title: '读板', description: 'Reads the board.' },
      ],
    ])('takes %s (%s, %s)', (_case, locale, name, texts) => {
      expect(tool(locale, name)).toMatchObject(texts);
    });

    it('has no title or description member where neither gives one', () => {
      for (const locale of ['en-US', 'zh-CN']) {
        expect(tool(locale, 'members')).not.toHaveProperty('title');
        expect(tool(locale, 'members')).not.toHaveProperty('description');
      }
    });

    it('builds each list once and hands out the same frozen list', () => {
      const list = catalogue.tools('zh-CN');
      expect(catalogue.tools('zh-CN')).toBe(list);
      expect(catalogue.toolsByName('zh-CN')).toBe(
        catalogue.toolsByName('zh-CN'),
      );
      expect(Object.isFrozen(list)).toBe(true);
    });
  });

  describe('isSameInEveryLanguage', () => {
    it('is false when a text differs between the languages', () => {
      expect(catalogue.isSameInEveryLanguage()).toBe(false);
    });

    it('is true for two languages whose catalogue has no tool texts', async () => {
      const plain = await start(
        [DeskOperations],
        {},
        {
          'en-US': {},
          'zh-CN': {},
        },
      );
      try {
        const tools = plain.get(McpToolCatalogue);
        expect(tools.isSameInEveryLanguage()).toBe(true);
        expect(tools.tools('zh-CN')).toEqual(tools.tools('en-US'));
      } finally {
        await plain.close();
      }
    });

    it('is true for an application without a catalogue (one language)', async () => {
      const plain = await start([DeskOperations]);
      try {
        expect(plain.get(McpToolCatalogue).isSameInEveryLanguage()).toBe(true);
      } finally {
        await plain.close();
      }
    });
  });

  describe('find', () => {
    it('finds the operation behind a tool name', () => {
      expect(catalogue.find('members')).toEqual({
        name: 'members',
        operation: expect.objectContaining({ id: 'tenant-members.list' }),
        paramHeaders: [],
      });
    });

    it.each([
      ['an operation exposed on the command line only', 'desk_shell'],
      ['an internal operation', 'desk_secret'],
      ['an operation id rather than its tool name', 'desk.echo'],
      ['the default name of a renamed tool', 'tenant-members_list'],
    ])('finds nothing for %s (%s)', (_case, name) => {
      expect(catalogue.find(name)).toBeUndefined();
    });
  });

  describe('at startup', () => {
    it('warns of the tools without a description, naming the key each would read', async () => {
      const warned = vi
        .spyOn(Logger.prototype, 'warn')
        .mockImplementation(() => undefined);
      const plain = await start([DeskOperations]);
      await plain.close();
      expect(warned).toHaveBeenCalledTimes(1);
      expect(warned.mock.calls[0][0]).toMatch(
        /^2 MCP tool\(s\) without a description: desk_echo \(key desk\.echo\.description\), tenant-members_list \(key tenant_members\.list\.description\)\. /,
      );
    });

    it.each<[string, Type, McpModuleOptions, object]>([
      [
        'a tool name outside the MCP pattern',
        DeskOperations,
        { tools: { 'desk.echo': 'desk echo' } },
        { code: 'PROTOCOLS_VALIDATION_004' },
      ],
      [
        'two operations under one tool name',
        ClashingOperations,
        { tools: { 'desk.say': 'desk_echo' } },
        { code: 'PROTOCOLS_CONFLICT_001' },
      ],
    ])('fails on %s', async (_case, provider, options, expected) => {
      const failed = start([provider], options);
      await expect(failed).rejects.toBeInstanceOf(ContractError);
      await expect(failed).rejects.toMatchObject(expected);
    });

    it('fails on a tools option naming no operation of the application', async () => {
      await expect(
        start([DeskOperations], { tools: { 'desk.gone': 'gone' } }),
      ).rejects.toThrow(
        "Invalid McpModule options: tools names 'desk.gone', which is not an operation of this application.",
      );
    });
  });
});
