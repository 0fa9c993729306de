import { contentJson } from './content-json.js';
import { contentLine } from './content-line.js';
import { MCP_CONTENT_MAX_BYTES, McpContent } from './mcp-content.js';
import { McpResult } from './mcp-result.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('McpContent', () => {
  it('keeps the bytes it is given, not a copy', () => {
    const block = McpContent.image(PNG, 'image/png');
    expect(block.data).toBe(PNG);
    expect(Object.isFrozen(block)).toBe(true);
  });

  it('writes bytes as base64 once, from the view only (a slice of a larger buffer)', () => {
    const pool = Buffer.from('xxxxHELLOyyyy');
    const view = new Uint8Array(pool.buffer, pool.byteOffset + 4, 5);
    expect(
      JSON.parse(`[${contentJson([McpContent.audio(view, 'audio/wav')])}]`),
    ).toEqual([
      {
        type: 'audio',
        data: Buffer.from('HELLO').toString('base64'),
        mimeType: 'audio/wav',
      },
    ]);
  });

  it('writes each kind of block as MCP content', () => {
    const blocks = [
      McpContent.text('Label:'),
      McpContent.image(PNG.toString('base64'), 'image/png'),
      McpContent.resource({
        uri: 'orders://7',
        mimeType: 'application/json',
        text: '{"id":7}',
      }),
      McpContent.resource({ uri: 'orders://7/label', blob: PNG }),
      McpContent.link('orders://7/label.pdf', {
        name: 'label.pdf',
        mimeType: 'application/pdf',
        size: 2048,
      }),
    ];
    expect(JSON.parse(`[${contentJson(blocks)}]`)).toEqual([
      { type: 'text', text: 'Label:' },
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'orders://7',
          mimeType: 'application/json',
          text: '{"id":7}',
        },
      },
      {
        type: 'resource',
        resource: { uri: 'orders://7/label', blob: PNG.toString('base64') },
      },
      {
        type: 'resource_link',
        uri: 'orders://7/label.pdf',
        name: 'label.pdf',
        mimeType: 'application/pdf',
        size: 2048,
      },
    ]);
  });

  it('refuses base64 text that is not base64, and data that is not bytes', () => {
    expect(() => McpContent.image('not base64!', 'image/png')).toThrow(
      'McpContent.image: the data must be a Uint8Array (a Buffer) or base64 text.',
    );
    expect(() =>
      McpContent.audio([1, 2] as unknown as Uint8Array, 'audio/wav'),
    ).toThrow(TypeError);
    expect(() =>
      McpContent.resource({ uri: 'x://y', blob: 'SGVsbG8' }),
    ).toThrow('McpContent.resource: the data must be');
  });

  it('refuses a MIME type that is not type/subtype', () => {
    expect(() => McpContent.image(PNG, 'png')).toThrow(
      'McpContent.image: "png" is not a MIME type (type/subtype).',
    );
    expect(() => McpContent.link('x://y', { name: 'y', mimeType: '' })).toThrow(
      'McpContent.resource_link: "" is not a MIME type',
    );
  });

  describe(`at most MCP_CONTENT_MAX_BYTES (${MCP_CONTENT_MAX_BYTES}) a result`, () => {
    it('one block over it fails when it is made, naming the limit', () => {
      const big = new Uint8Array(MCP_CONTENT_MAX_BYTES + 1);
      expect(() => McpContent.image(big, 'image/png')).toThrow(
        `McpContent.image: ${MCP_CONTENT_MAX_BYTES + 1} bytes of content, over the ${MCP_CONTENT_MAX_BYTES} (MCP_CONTENT_MAX_BYTES) one tool result may hold; link to it with McpContent.link() instead.`,
      );
      // Exactly the limit is allowed.
      expect(() =>
        McpContent.image(new Uint8Array(MCP_CONTENT_MAX_BYTES), 'image/png'),
      ).not.toThrow();
    });

    it('blocks under it each but over it together fail as a result, base64 text counted decoded', () => {
      const half = new Uint8Array(MCP_CONTENT_MAX_BYTES / 2);
      const text = Buffer.alloc(3).toString('base64'); // 3 bytes decoded
      expect(() =>
        McpResult.content(
          McpContent.image(half, 'image/png'),
          McpContent.audio(half, 'audio/wav'),
        ),
      ).not.toThrow();
      expect(() =>
        McpResult.of(
          { id: 1 },
          McpContent.image(half, 'image/png'),
          McpContent.audio(half, 'audio/wav'),
          McpContent.image(text, 'image/png'),
        ),
      ).toThrow(
        `McpResult: ${MCP_CONTENT_MAX_BYTES + 3} bytes of content, over the ${MCP_CONTENT_MAX_BYTES}`,
      );
    });
  });

  it('says in one line what a block holds, for the command line', () => {
    expect(contentLine(McpContent.image(PNG, 'image/png'))).toBe(
      'image image/png, 8 bytes',
    );
    expect(
      contentLine(McpContent.resource({ uri: 'x://y', blob: 'SGVsbG8=' })),
    ).toBe('resource x://y, 5 bytes');
    expect(
      contentLine(McpContent.link('orders://7/label', { name: 'label.pdf' })),
    ).toBe('link orders://7/label (label.pdf)');
    expect(contentLine(McpContent.text('hi'))).toBe('hi');
  });
});

describe('McpResult', () => {
  it('holds the structured result and the blocks, frozen', () => {
    const image = McpContent.image(PNG, 'image/png');
    const result = McpResult.of({ id: 7 }, image);
    expect(result.structured).toEqual({ id: 7 });
    expect(result.content).toEqual([image]);
    expect(Object.isFrozen(result)).toBe(true);
    expect(McpResult.content(image).structured).toBeUndefined();
  });
});
