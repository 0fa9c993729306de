import { Injectable, Logger, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type InvocationContext, Operation } from '@nestops/operations';
import { callHooksOf, type ResponseStream } from '@nestops/operations/internal';
import { McpProtocol } from './mcp-protocol.js';
import { McpModule } from '../mcp.module.js';
import { resultValue } from './answer-text.js';
import { classifyMessage } from './mcp-message.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';

@Injectable()
class Desk {
  @Operation({
    input: null,
    id: 'desk.echo',
    readOnly: true,
    description: 'Echoes.',
  })
  echo(_input: unknown, context: InvocationContext) {
    const stream = callHooksOf(context)?.responseStream;
    stream?.send({ jsonrpc: '2.0', method: 'notes/ahead' });
    return { open: stream?.open ?? false };
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'desk', serverVersion: '1.0.0' })],
  providers: [Desk],
})
class DeskModule {}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number, method: string, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});
const modern = (id: number, method: string, params: object = {}) =>
  request(id, method, { ...params, _meta: META });

describe('McpProtocol (the router)', () => {
  let moduleRef: TestingModule;
  let dispatcher: McpProtocol;
  const caller = { headers: { 'x-correlation-id': 'router-1' } };

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DeskModule],
    }).compile();
    await moduleRef.init();
    dispatcher = moduleRef.get(McpProtocol);
  });
  afterAll(() => moduleRef?.close());
  afterEach(() => vi.restoreAllMocks());

  const errorOf = async (message: unknown) => {
    const response = await dispatcher.dispatch(message, caller);
    return response && 'error' in response ? response.error : undefined;
  };

  it('answers a refused message with its error, echoing its id', async () => {
    expect(
      await dispatcher.dispatch({ id: 3, method: 'ping' }, caller),
    ).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: expect.objectContaining({ code: -32600 }),
    });
  });

  it('answers nothing to a notification or a client response', async () => {
    expect(
      await dispatcher.dispatch({ jsonrpc: '2.0', method: 'ping' }, caller),
    ).toBeUndefined();
    expect(
      await dispatcher.dispatch({ jsonrpc: '2.0', id: 1, result: {} }, caller),
    ).toBeUndefined();
  });

  it('routes a 2025 request to the 2025 methods only', async () => {
    expect(await dispatcher.dispatch(request(1, 'ping'), caller)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
    expect((await errorOf(request(2, 'server/discover')))?.code).toBe(-32601);
  });

  it('routes a 2026 request to the 2026 methods only', async () => {
    const discovered = await dispatcher.dispatch(
      modern(1, 'server/discover'),
      caller,
    );
    expect(discovered).toMatchObject({
      id: 1,
      result: { resultType: 'complete', supportedVersions: expect.any(Array) },
    });
    expect((await errorOf(modern(2, 'initialize')))?.code).toBe(-32601);
    expect((await errorOf(modern(3, 'ping')))?.code).toBe(-32601);
  });

  it('answers an unexpected failure -32603 with the caller correlation id, logged with its cause', async () => {
    vi.spyOn(moduleRef.get(McpToolCatalogue), 'find').mockImplementation(() => {
      throw new Error('lookup exploded');
    });
    const logged = vi
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    expect(
      await errorOf(request(4, 'tools/call', { name: 'desk_echo' })),
    ).toEqual({
      code: -32603,
      message: 'Internal error (correlation id router-1).',
      data: { code: 'INTERNAL_ERROR_001', correlationId: 'router-1' },
    });
    expect(logged).toHaveBeenCalledWith(
      'MCP request failed (correlation id router-1)',
      expect.stringContaining('Error: lookup exploded'),
    );
  });

  it('hands the carrier response stream to the call; dispatch() gives a closed one', async () => {
    const sent: unknown[] = [];
    const stream: ResponseStream = {
      open: true,
      send: (message) => sent.push(message),
    };
    const call = request(5, 'tools/call', { name: 'desk_echo' });
    const served = await dispatcher.receive(classifyMessage(call), {
      kind: 'in-process',
      caller,
      stream,
    });
    expect(served && 'result' in served && resultValue(served.result)).toEqual({
      content: [{ type: 'text', text: '{"open":true}' }],
      structuredContent: { open: true },
    });
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notes/ahead' }]);
    const plain = await dispatcher.dispatch(call, caller);
    expect(
      plain && 'result' in plain && resultValue(plain.result),
    ).toMatchObject({ structuredContent: { open: false } });
    expect(sent).toHaveLength(1);
  });
});
