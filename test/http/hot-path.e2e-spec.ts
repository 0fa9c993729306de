import { McpProtocol } from '@nestops/mcp/internal';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nAppModule } from '../fixtures/i18n-fixtures';
import { ACCEPT_BOTH, mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * Work done once instead of per request: the tool list of each language
 * and era written once, a POST's body parsed once, a call's result
 * serialised once (observed, not timed).
 */

const running = useApp(() => startApp(I18nAppModule.register({ i18n: true })));
afterEach(() => {
  vi.restoreAllMocks();
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** POSTs `body` as it is, as a Streamable HTTP client does: the text of the 200 answer. */
async function post(
  body: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const reply = await mcpHttp(running().baseUrl).post(body, {
    ...ACCEPT_BOTH,
    ...headers,
  });
  expect(reply.status).toBe(200);
  return reply.text;
}

describe('tools/list', () => {
  it('is one prepared result per era and language: only the id differs between answers', async () => {
    const dispatcher = running().app.get(McpProtocol);
    const list = (id: number, language: string, modern = false) =>
      dispatcher.dispatch(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/list',
          ...(modern ? { params: { _meta: MODERN_META } } : {}),
        },
        { headers: { 'accept-language': language } },
      );
    const [a, b, c, d, e] = await Promise.all([
      list(1, 'zh-CN'),
      list(2, 'zh'),
      list(3, 'en-US'),
      list(4, 'zh-CN', true),
      list(5, 'zh;q=0.9'),
    ]);
    const result = (answer: typeof a) =>
      answer && 'result' in answer ? answer.result : undefined;
    expect(result(a)).toBe(result(b));
    expect(result(a)).toBe(result(e));
    expect(result(a)).not.toBe(result(c));
    expect(result(a)).not.toBe(result(d));

    const first = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
      'accept-language': 'zh-CN',
    });
    const second = await post(
      '{"jsonrpc":"2.0","id":"two","method":"tools/list"}',
      { 'accept-language': 'zh-CN' },
    );
    expect(second).toBe(first.replace('"id":1,', '"id":"two",'));
    expect(JSON.parse(first)).toMatchObject({
      result: {
        tools: expect.arrayContaining([
          expect.objectContaining({ title: '列出租户成员' }),
        ]),
      },
    });
  });

  it('serialises and encodes no tool again per request', async () => {
    await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const stringify = vi.spyOn(JSON, 'stringify');
    const encode = vi.spyOn(Buffer, 'from');
    const measure = vi.spyOn(Buffer, 'byteLength');
    for (let i = 0; i < 5; i++) {
      await post(`{"jsonrpc":"2.0","id":${i},"method":"tools/list"}`);
    }
    const tools = stringify.mock.calls.filter(
      ([value]) =>
        typeof value === 'object' &&
        value !== null &&
        JSON.stringify.call(JSON, value).includes('glossary_lookup'),
    );
    expect(tools).toEqual([]);
    const listed = (text: unknown) =>
      typeof text === 'string' && text.includes('glossary_lookup');
    expect(encode.mock.calls.filter(([text]) => listed(text))).toEqual([]);
    expect(measure.mock.calls.filter(([text]) => listed(text))).toEqual([]);
  });
});

describe('tools/call', () => {
  it('parses the body once', async () => {
    const body =
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"silent_ping","arguments":{}}}';
    const parse = vi.spyOn(JSON, 'parse');
    await post(body);
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  });

  it('writes the result once: the text content is the structured content, byte for byte', async () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const answer = await post(
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"silent_ping","arguments":{}}}',
    );
    expect(answer).toBe(
      '{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"{\\"pong\\":true}"}],"structuredContent":{"pong":true}}}',
    );
    const results = stringify.mock.calls.filter(
      ([value]) =>
        typeof value === 'object' &&
        value !== null &&
        (value as { pong?: unknown }).pong === true,
    );
    expect(results).toHaveLength(1);
  });

  it('keeps the 2026 members around the prepared result', async () => {
    const answer = JSON.parse(
      await post(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'silent_ping', arguments: {}, _meta: MODERN_META },
        }),
        {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'silent_ping',
        },
      ),
    ) as { result: Record<string, unknown> };
    expect(Object.keys(answer.result)).toEqual([
      'resultType',
      'content',
      'structuredContent',
      '_meta',
    ]);
    expect(answer.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { pong: true },
    });
  });
});
