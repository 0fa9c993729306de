import { idOf, readEnvelope } from './json-rpc-envelope.js';
import { McpProtocolError } from './mcp-protocol.error.js';

function rejection(message: unknown): McpProtocolError {
  try {
    readEnvelope(message);
  } catch (error) {
    if (error instanceof McpProtocolError) {
      return error;
    }
    throw error;
  }
  throw new Error(`readEnvelope accepted ${JSON.stringify(message)}`);
}

describe('readEnvelope', () => {
  it.each([
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 0, method: 'ping' },
    { jsonrpc: '2.0', id: -7, method: 'ping' },
    { jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER, method: 'ping' },
    { jsonrpc: '2.0', id: Number.MIN_SAFE_INTEGER, method: 'ping' },
    { jsonrpc: '2.0', id: 'abc', method: 'tools/call', params: { name: 'x' } },
    { jsonrpc: '2.0', id: '', method: 'ping', params: {} },
  ])('classifies %j as a request', (message) => {
    expect(readEnvelope(message)).toEqual({
      kind: 'request',
      request: message,
    });
  });

  it('hands back the message itself as the request', () => {
    const message = { jsonrpc: '2.0', id: 3, method: 'initialize' };
    const envelope = readEnvelope(message);

    expect(envelope.kind).toBe('request');
    expect(envelope.kind !== 'response' && envelope.request).toBe(message);
  });

  it.each([
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    },
  ])('classifies %j as a notification', (message) => {
    expect(readEnvelope(message)).toEqual({
      kind: 'notification',
      request: message,
    });
  });

  it.each([
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 'srv-1', result: null },
    { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } },
  ])('classifies the client response %j', (message) => {
    expect(readEnvelope(message)).toEqual({
      kind: 'response',
      id: message.id,
      result: message.result,
      error: message.error,
    });
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', '{"jsonrpc":"2.0"}'],
    ['a boolean', true],
    ['an empty array', []],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ['no jsonrpc', { id: 1, method: 'ping' }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['jsonrpc as a number', { jsonrpc: 2.0, id: 1, method: 'ping' }],
    ['jsonrpc "2.0 "', { jsonrpc: '2.0 ', id: 1, method: 'ping' }],
    ['no method', { jsonrpc: '2.0', id: 1 }],
    ['no method and no id', { jsonrpc: '2.0' }],
    ['a result without id', { jsonrpc: '2.0', result: {} }],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 1 }],
    ['a null method', { jsonrpc: '2.0', id: 1, method: null }],
    ['an object method', { jsonrpc: '2.0', id: 1, method: { name: 'ping' } }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['a null id on a response', { jsonrpc: '2.0', id: null, result: {} }],
    ['an object id', { jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }],
    ['an array id', { jsonrpc: '2.0', id: [1], method: 'ping' }],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }],
    ['an infinite id', { jsonrpc: '2.0', id: Infinity, method: 'ping' }],
    ['a NaN id', { jsonrpc: '2.0', id: NaN, method: 'ping' }],
    ['an unsafe id', { jsonrpc: '2.0', id: 2 ** 53, method: 'ping' }],
    ['an unsafe negative id', { jsonrpc: '2.0', id: -(2 ** 53), method: 'n' }],
    ['a fractional id', { jsonrpc: '2.0', id: -7.5, method: 'ping' }],
    ['an unsafe id on a response', { jsonrpc: '2.0', id: 1e300, result: {} }],
    ['an array params', { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }],
    ['a string params', { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' }],
    ['a null params', { jsonrpc: '2.0', id: 1, method: 'ping', params: null }],
    ['a numeric params', { jsonrpc: '2.0', method: 'n', params: 1 }],
  ])('rejects %s with -32600 PROTOCOLS_VALIDATION_001', (_case, message) => {
    const error = rejection(message);

    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error.rpcCode).toBe(-32600);
    expect(error.code).toBe('PROTOCOLS_VALIDATION_001');
    expect(error.toResponse(idOf(message))).toEqual({
      jsonrpc: '2.0',
      id: idOf(message),
      error: {
        code: -32600,
        message: error.message,
        data: { code: 'PROTOCOLS_VALIDATION_001' },
      },
    });
  });
});

describe('idOf', () => {
  it.each<[unknown, string | number | null]>([
    [{ jsonrpc: '2.0', id: 7, method: 'ping' }, 7],
    [{ jsonrpc: '2.0', id: 0, method: 'ping' }, 0],
    [{ jsonrpc: '2.0', id: 'abc', method: 'ping' }, 'abc'],
    [{ jsonrpc: '1.0', id: 5, method: 'ping' }, 5],
    [{ id: 'only-id' }, 'only-id'],
    [{ jsonrpc: '2.0', method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: { n: 1 }, method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: [1], method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: true, method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: Infinity, method: 'ping' }, null],
    [
      { jsonrpc: '2.0', id: Number('12345678901234567890'), method: 'ping' },
      null,
    ],
    [{ jsonrpc: '2.0', id: 0.5, method: 'ping' }, null],
    [{ jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER }, Number.MAX_SAFE_INTEGER],
    [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], null],
    [null, null],
    [undefined, null],
    ['{"id":1}', null],
    [1, null],
  ])('idOf(%j) is %j', (message, expected) => {
    expect(idOf(message)).toBe(expected);
  });
});
