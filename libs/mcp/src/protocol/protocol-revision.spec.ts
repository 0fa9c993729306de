import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { classifyMessage } from './mcp-message.js';
import { readRequestMeta } from './protocol-revision.js';

const revisionOf = (message: unknown, carrierVersion?: string) =>
  classifyMessage(message, carrierVersion).revision;

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META = { [VERSION]: '2026-07-28', [CAPABILITIES]: {} };

const request = (params?: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  ...(params === undefined ? {} : { params }),
});

function refusal(params: Record<string, unknown>): McpProtocolError {
  try {
    readRequestMeta(params);
  } catch (error) {
    if (error instanceof McpProtocolError) {
      return error;
    }
    throw error;
  }
  throw new Error(`readRequestMeta accepted ${JSON.stringify(params)}`);
}

describe('the revision classifyMessage reads', () => {
  it.each<[string, unknown]>([
    ['a request with the version in _meta', request({ _meta: META })],
    [
      'a request naming an unknown version in _meta',
      request({ _meta: { [VERSION]: '1900-01-01' } }),
    ],
    [
      'a request whose _meta version is not even a string',
      request({ _meta: { [VERSION]: null } }),
    ],
    [
      'initialize with the version in _meta',
      { ...request({ _meta: META }), method: 'initialize' },
    ],
    [
      'a notification with the version in _meta',
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { _meta: META },
      },
    ],
  ])('%s is modern', (_case, message) => {
    expect(revisionOf(message)).toBe('2026');
  });

  it.each<[string, unknown]>([
    ['a request without params', request()],
    ['a request without _meta', request({})],
    [
      'a request with other _meta keys',
      request({ _meta: { progressToken: 1 } }),
    ],
    [
      'clientCapabilities without a version',
      request({ _meta: { [CAPABILITIES]: {} } }),
    ],
    ['a _meta that is not an object', request({ _meta: 'x' })],
    [
      'initialize as 2025 clients send it',
      {
        ...request({ protocolVersion: '2025-11-25', capabilities: {} }),
        method: 'initialize',
      },
    ],
    ['a batch', [request({ _meta: META })]],
    ['not an object', 'tools/list'],
  ])('%s is legacy', (_case, message) => {
    expect(revisionOf(message)).toBe('2025');
  });

  it('a 2026 version named by the carrier makes any message modern', () => {
    expect(revisionOf(request(), '2026-07-28')).toBe('2026');
    expect(revisionOf([request()], '2026-07-28')).toBe('2026');
  });

  it.each(['2025-11-25', '2025-03-26', '1999-01-01', undefined])(
    'the carrier naming %s leaves a message without _meta legacy',
    (version) => {
      expect(revisionOf(request(), version)).toBe('2025');
    },
  );
});

describe('readRequestMeta', () => {
  it('reads the version, the capabilities and the log level', () => {
    expect(
      readRequestMeta({
        _meta: {
          ...META,
          [CAPABILITIES]: { roots: {} },
          'io.modelcontextprotocol/logLevel': 'warning',
          'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
        },
      }),
    ).toEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: { roots: {} },
      logLevel: 'warning',
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['no _meta', {}],
    ['a _meta that is an array', { _meta: [META] }],
    ['no version', { _meta: { [CAPABILITIES]: {} } }],
    ['a numeric version', { _meta: { ...META, [VERSION]: 20260728 } }],
    ['no clientCapabilities', { _meta: { [VERSION]: '2026-07-28' } }],
    ['null clientCapabilities', { _meta: { ...META, [CAPABILITIES]: null } }],
    ['array clientCapabilities', { _meta: { ...META, [CAPABILITIES]: [] } }],
    [
      'an unknown log level',
      { _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'trace' } },
    ],
    [
      'a log level in capitals',
      { _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'INFO' } },
    ],
  ])('refuses %s with -32602 PROTOCOLS_VALIDATION_005', (_case, params) => {
    const error = refusal(params);
    expect(error.rpcCode).toBe(-32602);
    expect(error.code).toBe('PROTOCOLS_VALIDATION_005');
  });

  it.each(['1900-01-01', '2025-11-25', '2025-03-26', '2026-07-28 ', ''])(
    'refuses the version %j with -32022, naming every spoken version',
    (version) => {
      const error = refusal({ _meta: { ...META, [VERSION]: version } });
      expect(error.toResponse(4)).toEqual({
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32022,
          message: error.message,
          data: {
            code: 'PROTOCOLS_VALIDATION_002',
            supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
            requested: version,
          },
        },
      });
    },
  );

  it('checks the fields before the version: a missing field is -32602 whatever the version', () => {
    expect(refusal({ _meta: { [VERSION]: '1900-01-01' } }).rpcCode).toBe(
      -32602,
    );
  });
});

describe('the body version classifyMessage reads', () => {
  it.each<[string, unknown, string | undefined]>([
    ['a 2026 request', request({ _meta: META }), '2026-07-28'],
    [
      'a version this server does not speak',
      request({ _meta: { [VERSION]: 'v999.0.0' } }),
      'v999.0.0',
    ],
    [
      'a version that is not a string',
      request({ _meta: { [VERSION]: 1 } }),
      undefined,
    ],
    ['no _meta', request({}), undefined],
    ['no params', request(), undefined],
    ['a batch', [request({ _meta: META })], undefined],
  ])('%s', (_case, message, version) => {
    expect(classifyMessage(message).bodyVersion).toBe(version);
  });
});
