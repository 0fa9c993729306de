import { cancelledRequestId, classifyMessage } from './mcp-message.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('classifyMessage', () => {
  it('reads a 2025 request once: its id, method, params, no meta', () => {
    expect(
      classifyMessage({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'x' },
      }),
    ).toEqual({
      kind: 'request',
      revision: '2025',
      bodyVersion: undefined,
      id: 3,
      method: 'tools/call',
      params: { name: 'x' },
      meta: undefined,
    });
  });

  it('reads a 2026 request with its _meta; params default to {}', () => {
    const message = {
      jsonrpc: '2.0',
      id: 'a',
      method: 'tools/list',
      params: { _meta: META },
    };
    expect(classifyMessage(message)).toMatchObject({
      kind: 'request',
      revision: '2026',
      bodyVersion: '2026-07-28',
      meta: { protocolVersion: '2026-07-28', clientCapabilities: {} },
    });
    expect(
      classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    ).toMatchObject({ params: {} });
  });

  it('notifications and client responses are not answered', () => {
    expect(
      classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    ).toEqual({
      kind: 'notification',
      revision: '2025',
      bodyVersion: undefined,
      method: 'notifications/initialized',
      params: {},
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 9, result: {} })).toEqual({
      kind: 'response',
      revision: '2025',
      bodyVersion: undefined,
      id: 9,
      result: {},
      error: undefined,
    });
  });

  it('refuses a message that is not JSON-RPC 2.0 with -32600, echoing a usable id', () => {
    const refused = classifyMessage({ jsonrpc: '1.0', id: 4, method: 'ping' });
    expect(refused).toMatchObject({ kind: 'refused', id: 4, revision: '2025' });
    expect(refused.kind === 'refused' && refused.error.rpcCode).toBe(-32600);
    expect(classifyMessage('ping')).toMatchObject({
      kind: 'refused',
      id: null,
    });
  });

  it('refuses a 2026 request with a bad _meta (-32602) or a version not spoken (-32022)', () => {
    const bad = classifyMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 2026 } },
    });
    expect(bad).toMatchObject({ kind: 'refused', revision: '2026', id: 1 });
    expect(bad.kind === 'refused' && bad.error.rpcCode).toBe(-32602);
    const unknown = classifyMessage({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: {
        _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v9' },
      },
    });
    expect(unknown).toMatchObject({ kind: 'refused', bodyVersion: 'v9' });
    expect(unknown.kind === 'refused' && unknown.error.rpcCode).toBe(-32022);
  });

  it('a 2026 carrier version makes a request without _meta a refused 2026 one', () => {
    const refused = classifyMessage(
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      '2026-07-28',
    );
    expect(refused).toMatchObject({ kind: 'refused', revision: '2026', id: 5 });
    expect(refused.kind === 'refused' && refused.error.rpcCode).toBe(-32602);
  });

  it('reads no _meta of a 2026 notification', () => {
    expect(
      classifyMessage({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 1 } },
      }),
    ).toMatchObject({
      kind: 'notification',
      revision: '2026',
      bodyVersion: undefined,
      method: 'notifications/cancelled',
    });
  });

  it('a carrier version names the revision only when it is a 2026 one', () => {
    const request = { jsonrpc: '2.0', id: 6, method: 'tools/list' };
    expect(classifyMessage(request, '2025-06-18')).toMatchObject({
      kind: 'request',
      revision: '2025',
    });
    expect(classifyMessage(request, undefined)).toMatchObject({
      kind: 'request',
      revision: '2025',
    });
  });

  it('a _meta that names no protocol version leaves the request a 2025 one', () => {
    expect(
      classifyMessage({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: { progressToken: 1 } },
      }),
    ).toMatchObject({ kind: 'request', revision: '2025', meta: undefined });
  });
});

describe('cancelledRequestId', () => {
  const cancelled = (params: unknown) => {
    const message = classifyMessage({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      ...(params === undefined ? {} : { params }),
    });
    if (message.kind !== 'notification') {
      throw new Error(`not a notification: ${JSON.stringify(message)}`);
    }
    return message;
  };

  it('is the string or number id a notifications/cancelled names', () => {
    expect(cancelledRequestId(cancelled({ requestId: 'a' }))).toBe('a');
    expect(cancelledRequestId(cancelled({ requestId: 0 }))).toBe(0);
  });

  it('is undefined for any other notification or id', () => {
    const progress = classifyMessage({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { requestId: 1 },
    });
    expect(
      progress.kind === 'notification' && cancelledRequestId(progress),
    ).toBeUndefined();
    expect(cancelledRequestId(cancelled(undefined))).toBeUndefined();
    expect(cancelledRequestId(cancelled({}))).toBeUndefined();
    expect(cancelledRequestId(cancelled({ requestId: true }))).toBeUndefined();
    expect(
      cancelledRequestId(cancelled({ requestId: { id: 1 } })),
    ).toBeUndefined();
    expect(cancelledRequestId(cancelled({ requestId: null }))).toBeUndefined();
  });

  it('classifies a params that is not an object as refused, cancelling nothing', () => {
    expect(
      classifyMessage({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: 'a',
      }),
    ).toMatchObject({ kind: 'refused' });
  });
});
