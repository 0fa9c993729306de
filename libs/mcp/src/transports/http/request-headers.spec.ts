import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcRequest } from '../../json-rpc/json-rpc.types.js';
import { idOf } from '../../json-rpc/json-rpc-envelope.js';
import { McpProtocolError } from '../../json-rpc/mcp-protocol.error.js';
import {
  classifyMessage,
  type McpRequest,
} from '../../protocol/mcp-message.js';
import {
  requestHeadersRefusal,
  versionHeaderRefusal,
} from './request-headers.js';

const call: JsonRpcRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'orders_create', arguments: {} },
};
const list: JsonRpcRequest = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const HEADERS: IncomingHttpHeaders = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'orders_create',
};
/** A 2026 request as the classifier reads it, its `_meta` valid. */
function served(request: JsonRpcRequest): McpRequest {
  const classified = classifyMessage({
    ...request,
    params: {
      ...request.params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  if (classified.kind !== 'request') {
    throw new Error(`not a request: ${JSON.stringify(request)}`);
  }
  return classified;
}
const refusalOf = (headers: IncomingHttpHeaders, message: unknown) =>
  versionHeaderRefusal(
    headers,
    classifyMessage(message).bodyVersion,
    idOf(message),
  );
const base64 = (text: string) =>
  `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

function mismatch(
  headers: IncomingHttpHeaders,
  request: JsonRpcRequest = call,
): string {
  const refusal = requestHeadersRefusal(headers, served(request));
  if (!refusal) {
    throw new Error(`accepted ${JSON.stringify(headers)}`);
  }
  expect(refusal).toBeInstanceOf(McpProtocolError);
  expect(refusal.rpcCode).toBe(-32020);
  expect(refusal.code).toBe('PROTOCOLS_VALIDATION_006');
  return refusal.message;
}

const accepts = (headers: IncomingHttpHeaders, request = call) =>
  expect(requestHeadersRefusal(headers, served(request))).toBeUndefined();

describe('requestHeadersRefusal', () => {
  it('accepts headers that match the body', () => {
    accepts(HEADERS);
    accepts(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      list,
    );
  });

  it.each([
    ['plain', 'orders_create'],
    ['encoded', base64('orders_create')],
    ['surrounded by spaces and tabs', ' \torders_create\t '],
  ])('accepts an Mcp-Name that is %s', (_case, name) => {
    accepts({ ...HEADERS, 'mcp-name': name });
  });

  it('compares an encoded name with a name that is not plain ASCII', () => {
    const named: JsonRpcRequest = { ...call, params: { name: 'bestellung_ä' } };
    accepts({ ...HEADERS, 'mcp-name': base64('bestellung_ä') }, named);
    mismatch({ ...HEADERS, 'mcp-name': base64('bestellung_a') }, named);
  });

  it('needs no Mcp-Name on other methods, nor on a tools/call without a name', () => {
    accepts(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      list,
    );
    const nameless = { ...call, params: { arguments: {} } };
    accepts(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
      nameless,
    );
    mismatch({ ...HEADERS }, nameless);
  });

  it.each<[string, IncomingHttpHeaders, RegExp]>([
    [
      'MCP-Protocol-Version missing',
      { ...HEADERS, 'mcp-protocol-version': undefined },
      /MCP-Protocol-Version header is missing/,
    ],
    [
      'MCP-Protocol-Version naming another version',
      { ...HEADERS, 'mcp-protocol-version': '2025-11-25' },
      /MCP-Protocol-Version/,
    ],
    [
      'Mcp-Method missing',
      { ...HEADERS, 'mcp-method': undefined },
      /Mcp-Method header is missing/,
    ],
    [
      'Mcp-Method in other letter case',
      { ...HEADERS, 'mcp-method': 'Tools/Call' },
      /Mcp-Method/,
    ],
    [
      'Mcp-Method sent twice',
      { ...HEADERS, 'mcp-method': 'tools/call, tools/call' },
      /Mcp-Method/,
    ],
    [
      'Mcp-Name missing',
      { ...HEADERS, 'mcp-name': undefined },
      /Mcp-Name header is missing/,
    ],
    [
      'Mcp-Name naming another tool',
      { ...HEADERS, 'mcp-name': 'orders_list' },
      /Mcp-Name/,
    ],
    [
      'Mcp-Name encoding another tool',
      { ...HEADERS, 'mcp-name': base64('orders_list') },
      /Mcp-Name/,
    ],
    [
      'the sentinel in other letter case',
      {
        ...HEADERS,
        'mcp-name': base64('orders_create').replace('base64', 'BASE64'),
      },
      /Mcp-Name/,
    ],
    [
      'an encoded value that is not base64',
      { ...HEADERS, 'mcp-name': '=?base64?b3Jk*XJz?=' },
      /not base64/,
    ],
    [
      'an encoded value with the wrong padding',
      { ...HEADERS, 'mcp-name': '=?base64?b3JkZXJz=?=' },
      /not base64/,
    ],
    [
      'an encoded value that is not UTF-8',
      {
        ...HEADERS,
        'mcp-name': `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`,
      },
      /not base64 of UTF-8/,
    ],
    [
      'a plain value with characters outside visible ASCII',
      { ...HEADERS, 'mcp-name': 'orders_créate' },
      /encode it/,
    ],
  ])('refuses %s with -32020', (_case, headers, reason) => {
    expect(mismatch(headers)).toMatch(reason);
  });

  it('checks MCP-Protocol-Version first, then Mcp-Method, then Mcp-Name', () => {
    expect(mismatch({})).toMatch(/MCP-Protocol-Version/);
    expect(mismatch({ 'mcp-protocol-version': '2026-07-28' })).toMatch(
      /Mcp-Method/,
    );
  });
});

describe('versionHeaderRefusal', () => {
  const named = (version: unknown, id: unknown = 7) => ({
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': version,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const header = (version?: string): IncomingHttpHeaders => ({
    'mcp-protocol-version': version,
  });

  it.each<[string, IncomingHttpHeaders, unknown]>([
    [
      'a body naming a version it does not speak',
      header('2026-07-28'),
      named('v999.0.0'),
    ],
    ['a body naming 2026-07-28', header('2025-11-25'), named('2026-07-28')],
    ['no header at all', {}, named('v999.0.0')],
  ])(
    'refuses a header that disagrees with %s: -32020, 400 at the transport',
    (_case, headers, message) => {
      const refusal = refusalOf(headers, message);
      expect(refusal?.toResponse(7)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32020,
          message: refusal?.message,
          data: { code: 'PROTOCOLS_VALIDATION_006' },
        },
      });
    },
  );

  it.each<[string, IncomingHttpHeaders, unknown]>([
    [
      'a header and body naming the same unknown version (left to the -32022 check)',
      header('v999.0.0'),
      named('v999.0.0'),
    ],
    [
      'a header equal to the body after trimming',
      header(' 2026-07-28\t'),
      named('2026-07-28'),
    ],
    [
      'a body version that is not a string (left to the _meta check)',
      header('2026-07-28'),
      named(20260728),
    ],
    [
      'a body without _meta',
      header('2026-07-28'),
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ],
    [
      'a notification (no id: nothing to answer)',
      header('2025-11-25'),
      { ...named('2026-07-28'), id: undefined },
    ],
  ])('leaves %s alone', (_case, headers, message) => {
    expect(refusalOf(headers, message)).toBeUndefined();
  });
});

describe('request headers: the exact forms (mutation run)', () => {
  const named = (name: string): JsonRpcRequest => ({
    ...call,
    params: { name, arguments: {} },
  });

  it('decodes only a whole =?base64?...?= value: text before or after it is plain text', () => {
    expect(
      mismatch({ ...HEADERS, 'mcp-name': `x${base64('orders_create')}` }),
    ).toMatch(/header value "x=\?base64\?/);
    expect(
      mismatch({ ...HEADERS, 'mcp-name': `${base64('orders_create')}x` }),
    ).toMatch(/header value "=\?base64\?.*\?=x"/);
  });

  it('accepts base64 with no padding, one = and two', () => {
    for (const name of ['abcdef', 'orders_list', 'orders_create']) {
      accepts({ ...HEADERS, 'mcp-name': base64(name) }, named(name));
    }
  });

  it('decodes no header but Mcp-Name', () => {
    expect(
      mismatch({ ...HEADERS, 'mcp-protocol-version': base64('2026-07-28') }),
    ).toMatch(/MCP-Protocol-Version header value "=\?base64\?/);
    expect(
      mismatch({ ...HEADERS, 'mcp-method': base64('tools/call') }),
    ).toMatch(/Mcp-Method header value "=\?base64\?/);
    const refusal = versionHeaderRefusal(
      { 'mcp-protocol-version': base64('2026-07-28') },
      '2026-07-28',
      1,
    );
    expect(refusal?.rpcCode).toBe(-32020);
  });

  it('needs Mcp-Name on tools/call and prompts/get only, even when another method has a name', () => {
    const prompt: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: 3,
      method: 'prompts/get',
      params: { name: 'greeting' },
    };
    const headers = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'prompts/get',
    };
    expect(requestHeadersRefusal(headers, served(prompt))?.message).toBe(
      'Header mismatch: the Mcp-Name header is missing.',
    );
    accepts({ ...headers, 'mcp-name': 'greeting' }, prompt);
    accepts(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'other/get' },
      { ...prompt, method: 'other/get' },
    );
  });

  it('trims spaces and tabs at the ends only, and names both values', () => {
    expect(mismatch({ ...HEADERS, 'mcp-name': 'orders _create' })).toBe(
      `Header mismatch: the Mcp-Name header value "orders _create" does not match the body's "orders_create".`,
    );
    expect(
      mismatch({ ...HEADERS, 'mcp-method': ['tools/call', 'tools/call'] }),
    ).toBe(
      `Header mismatch: the Mcp-Method header value "tools/call, tools/call" does not match the body's "tools/call".`,
    );
  });
});
