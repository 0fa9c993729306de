import type { InvocationResult, OperationFailure } from '@nestops/operations';
import { resolveMcpOptions } from '../options/mcp-options.resolver.js';
import {
  answerParts,
  answerText,
  RawJson,
  resultValue,
} from './answer-text.js';
import { McpAnswerWriter } from './answer.writer.js';
import { McpContent } from '../content/mcp-content.js';
import { McpResult } from '../content/mcp-result.js';

const writer = () =>
  new McpAnswerWriter(
    resolveMcpOptions({ serverName: 'desk', serverVersion: '1.2.3' }),
  );
const META = {
  'io.modelcontextprotocol/serverInfo': { name: 'desk', version: '1.2.3' },
};
const ok = (value: unknown): InvocationResult => ({
  ok: true,
  value,
  json: JSON.stringify(value),
});
/** A written result read back, as a client reads it. */
const read = (written: RawJson | object) =>
  written instanceof RawJson ? (JSON.parse(written.text) as unknown) : written;

describe('McpAnswerWriter', () => {
  describe('a result wrapped in McpResult', () => {
    const png = Buffer.from('PNG bytes');
    const image = {
      type: 'image',
      data: png.toString('base64'),
      mimeType: 'image/png',
    };
    const rich = (structured: unknown, value: unknown): InvocationResult => ({
      ok: true,
      value,
      json: JSON.stringify(value),
      carried:
        structured === undefined
          ? McpResult.content(McpContent.image(png, 'image/png'))
          : McpResult.of(structured, McpContent.image(png, 'image/png')),
    });

    it('sends its blocks after the JSON text, structuredContent as before, in both revisions', () => {
      const order = { id: 7 };
      expect(read(writer().toolResult(rich(order, order), '2025'))).toEqual({
        content: [{ type: 'text', text: '{"id":7}' }, image],
        structuredContent: order,
      });
      expect(read(writer().toolResult(rich(order, order), '2026'))).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: '{"id":7}' }, image],
        structuredContent: order,
        _meta: META,
      });
    });

    it('without a structured result: its blocks alone, no structuredContent', () => {
      expect(read(writer().toolResult(rich(undefined, null), '2025'))).toEqual({
        content: [image],
      });
      expect(read(writer().toolResult(rich(undefined, null), '2026'))).toEqual({
        resultType: 'complete',
        content: [image],
        _meta: META,
      });
    });
  });

  describe('a successful tool result, around the call JSON text', () => {
    it.each<[string, unknown, boolean, boolean]>([
      ['an object', { id: 1, name: 'Ada' }, true, true],
      ['an array', [1, 2], false, true],
      ['a string', 'done', false, true],
      ['null', null, false, true],
    ])(
      '%s: structuredContent in 2025 only for an object (%s), in 2026 for any JSON value',
      (_case, value, legacyStructured, modernStructured) => {
        const text = JSON.stringify(value);
        expect(read(writer().toolResult(ok(value), '2025'))).toEqual({
          content: [{ type: 'text', text }],
          ...(legacyStructured ? { structuredContent: value } : {}),
        });
        expect(read(writer().toolResult(ok(value), '2026'))).toEqual({
          resultType: 'complete',
          content: [{ type: 'text', text }],
          ...(modernStructured ? { structuredContent: value } : {}),
          _meta: META,
        });
      },
    );

    it('an undefined value has no structuredContent in either revision', () => {
      const result: InvocationResult = {
        ok: true,
        value: undefined,
        json: 'null',
      };
      expect(read(writer().toolResult(result, '2026'))).not.toHaveProperty(
        'structuredContent',
      );
      expect(read(writer().toolResult(result, '2025'))).not.toHaveProperty(
        'structuredContent',
      );
    });

    it('writes the JSON text as it is: the same characters in text and structuredContent', () => {
      const json = '{"b":2,"a":"\\u00e9"}';
      const written = writer().toolResult(
        { ok: true, value: { b: 2, a: 'é' }, json },
        '2025',
      ) as RawJson;
      expect(written.text).toBe(
        `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json}}`,
      );
      expect(written.reused).toBe(false);
    });
  });

  it('a failure: isError with its text, and in 2026 the 2026 members', () => {
    const failed: InvocationResult = {
      ok: false,
      failure: {} as OperationFailure,
      text: 'SECURITY_DENIED_001: Access denied.',
    };
    const content = [{ type: 'text', text: failed.text }];
    expect(writer().toolResult(failed, '2025')).toEqual({
      content,
      isError: true,
    });
    expect(writer().toolResult(failed, '2026')).toEqual({
      resultType: 'complete',
      content,
      isError: true,
      _meta: META,
    });
  });

  it('prepares each tools/list once per revision and language, reused', () => {
    const w = writer();
    const build = vi.fn(() => ({ tools: [] }));
    const first = w.toolList('2025', 'en-US', undefined, build);
    expect(w.toolList('2025', 'en-US', undefined, build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(first.reused).toBe(true);
    expect(JSON.parse(first.text)).toEqual({ tools: [] });
    const modern = w.toolList('2026', 'en-US', undefined, build);
    expect(JSON.parse(modern.text)).toEqual({
      resultType: 'complete',
      tools: [],
      _meta: META,
    });
    w.toolList('2025', 'zh-CN', undefined, build);
    expect(build).toHaveBeenCalledTimes(3);
  });

  it('prepares a list per caller once per set of permissions, apart from the whole list', () => {
    const w = writer();
    const build = vi.fn(() => ({ tools: [] }));
    const readers = w.toolList('2025', 'en-US', 'orders.read', build);
    expect(w.toolList('2025', 'en-US', 'orders.read', build)).toBe(readers);
    expect(w.toolList('2025', 'en-US', '', build)).not.toBe(readers);
    expect(w.toolList('2025', 'en-US', undefined, build)).not.toBe(readers);
    expect(build).toHaveBeenCalledTimes(3);
  });
});

describe('answerText and answerParts', () => {
  const prepared = new RawJson('{"tools":[]}', true);
  const once = new RawJson('{"content":[]}');

  it('writes a prepared result in place, anything else as JSON', () => {
    expect(answerText({ jsonrpc: '2.0', id: 'a', result: prepared })).toBe(
      '{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}',
    );
    expect(answerText({ jsonrpc: '2.0', id: 1, result: { x: 1 } })).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"x":1}}',
    );
    expect(
      answerText([
        { jsonrpc: '2.0', id: 1, result: once },
        { jsonrpc: '2.0', id: 2, result: {} },
      ]),
    ).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":{"content":[]}},{"jsonrpc":"2.0","id":2,"result":{}}]',
    );
    expect(
      answerText({ jsonrpc: '2.0', method: 'notifications/message' }),
    ).toBe('{"jsonrpc":"2.0","method":"notifications/message"}');
  });

  it('splits only a single response with a reused prepared result, its bytes as they are', () => {
    const parts = answerParts({ jsonrpc: '2.0', id: 7, result: prepared });
    expect(parts?.[0]).toBe('{"jsonrpc":"2.0","id":7,"result":');
    expect(parts?.[1]).toBe(prepared.bytes);
    expect(parts?.[2]).toBe('}');
    expect(
      answerParts({ jsonrpc: '2.0', id: 7, result: once }),
    ).toBeUndefined();
    expect(
      answerParts([{ jsonrpc: '2.0', id: 7, result: prepared }]),
    ).toBeUndefined();
  });

  it('reads a prepared result back as a value', () => {
    expect(resultValue(prepared)).toEqual({ tools: [] });
    expect(resultValue({ a: 1 })).toEqual({ a: 1 });
    expect(JSON.stringify({ result: once })).toBe('{"result":{"content":[]}}');
  });
});
