import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { CLIENT_INFO, ClientV1, ClientV2 } from '../support/mcp-clients';
import { useAskingApp } from '../support/asking-app';
import { AUDIT } from '../fixtures/asking-fixtures';
import { mcpHttp } from '../support/mcp-http';

/**
 * A confirmation and a form asked in the middle of a call, answered by the
 * official SDK clients' elicitation handlers: in 2025-11-25 a request on the
 * call's SSE stream, in 2026-07-28 an `input_required` result the v2
 * client's multi-round-trip driver answers and retries.
 */

type Action = 'accept' | 'decline' | 'cancel';

interface Asked {
  readonly message: string;
  readonly requestedSchema: unknown;
}

function v1Client(answer: (asked: Asked) => object, asked: Asked[]): ClientV1 {
  const client = new ClientV1(CLIENT_INFO, {
    capabilities: { elicitation: {} },
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params as unknown as Asked);
    return answer(request.params as unknown as Asked) as never;
  });
  return client;
}

function v2Client(answer: (asked: Asked) => object, asked: Asked[]): ClientV2 {
  // 2026-07-28 where the server offers it (the SDK's default is 2025-11-25).
  const client = new ClientV2(CLIENT_INFO, {
    capabilities: { elicitation: {} },
    versionNegotiation: { mode: 'auto' },
  });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params as unknown as Asked);
    return answer(request.params as unknown as Asked) as never;
  });
  return client;
}

function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as {
    text?: string;
  }[];
  return first?.text ?? '';
}

const confirmOnly = (action: Action) => () => ({ action });

describe('asking the user mid-call', () => {
  const app = useAskingApp();

  const url = () => new URL('/mcp', app.running.baseUrl);

  describe.each([
    ['SDK v1, 2025-11-25 over SSE', 'v1'],
    ['SDK v2, 2026-07-28 input_required', 'v2'],
  ] as const)('%s', (_label, sdk) => {
    async function connect(
      answer: (asked: Asked) => object,
      asked: Asked[] = [],
    ): Promise<ClientV1 | ClientV2> {
      if (sdk === 'v1') {
        const client = v1Client(answer, asked);
        await client.connect(new HttpV1(url()));
        return client;
      }
      const client = v2Client(answer, asked);
      await client.connect(new HttpV2(url()));
      return client;
    }

    it('deletes only after the user accepts, asking with the default question', async () => {
      AUDIT.length = 0;
      const asked: Asked[] = [];
      const client = await connect(confirmOnly('accept'), asked);
      const result = await client.callTool({
        name: 'items_delete',
        arguments: { id: 3 },
      });
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ deleted: 3 });
      expect(app.store.rows.has(3)).toBe(false);
      expect(app.store.runs.delete).toBe(1);
      // v2 asks in 2026-07-28: a first round answered input_required, then the retry.
      expect(
        AUDIT.map(({ outcome, protocolVersion }) => [outcome, protocolVersion]),
      ).toEqual(
        sdk === 'v1'
          ? [['ok', '2025-11-25']]
          : [
              ['INTERNAL_INPUT_001', '2026-07-28'],
              ['ok', '2026-07-28'],
            ],
      );
      expect(asked).toEqual([
        {
          message: 'Confirm: items.delete (id: 3)?',
          requestedSchema: { type: 'object', properties: {} },
        },
      ]);
    });

    it.each([
      ['decline', 'BUSINESS_DECLINED_001'],
      ['cancel', 'BUSINESS_DECLINED_002'],
    ] as const)(
      'on %s, fails with %s and leaves the row',
      async (action, code) => {
        const client = await connect(confirmOnly(action));
        const result = await client.callTool({
          name: 'items_delete',
          arguments: { id: 4 },
        });
        await client.close();
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(new RegExp(`^${code}: `));
        expect(app.store.rows.get(4)).toBe('item 4');
        expect(app.store.runs.delete).toBe(0);
      },
    );

    it('asks for a form from the DTO and gives the method the validated answer', async () => {
      const asked: Asked[] = [];
      const client = await connect(
        () => ({ action: 'accept', content: { slot: 'afternoon' } }),
        asked,
      );
      const result = await client.callTool({
        name: 'items_schedule',
        arguments: { id: 2 },
      });
      await client.close();
      expect(result.structuredContent).toEqual({
        id: 2,
        slot: 'afternoon',
        action: 'accept',
      });
      expect(asked[0]).toEqual({
        message: 'When should item 2 come?',
        requestedSchema: {
          type: 'object',
          properties: {
            slot: {
              type: 'string',
              title: 'Delivery slot',
              default: 'morning',
              enum: ['morning', 'afternoon'],
            },
            note: { type: 'string' },
          },
          required: ['slot'],
        },
      });
    });

    it('refuses a confirmation to a client without elicitation, deleting nothing', async () => {
      const client =
        sdk === 'v1'
          ? new ClientV1(CLIENT_INFO, { capabilities: {} })
          : new ClientV2(CLIENT_INFO, {
              capabilities: {},
              versionNegotiation: { mode: 'auto' },
            });
      await client.connect(
        sdk === 'v1' ? new HttpV1(url()) : (new HttpV2(url()) as never),
      );
      const result = await client.callTool({
        name: 'items_delete',
        arguments: { id: 6 },
      });
      await client.close();
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^SECURITY_CONFIRMATION_001: /);
      expect(app.store.rows.get(6)).toBe('item 6');
      expect(app.store.runs.delete).toBe(0);
    });

    it('refuses an answer that breaks the form, naming the field', async () => {
      const client = await connect(() => ({
        action: 'accept',
        content: { slot: 'night' },
      }));
      const result = await client.callTool({
        name: 'items_schedule',
        arguments: { id: 2 },
      });
      await client.close();
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^VALIDATION_INVALID_001: .*slot/);
    });
  });

  it('SDK v1: sends the user to a page (URL mode) and gives back the action', async () => {
    const asked: Asked[] = [];
    const client = new ClientV1(CLIENT_INFO, {
      capabilities: { elicitation: { url: {} } },
    });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params as unknown as Asked);
      return { action: 'accept' };
    });
    await client.connect(new HttpV1(new URL('/mcp', app.running.baseUrl)));
    const result = await client.callTool({
      name: 'items_pay',
      arguments: { id: 5 },
    });
    await client.close();
    expect(result.structuredContent).toEqual({ id: 5, action: 'accept' });
    expect(asked[0]).toMatchObject({
      mode: 'url',
      url: 'https://pay.example.com/items/5',
      message: 'Pay for item 5 on our page.',
      elicitationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('marks a confirmed tool in tools/list, and no other', async () => {
    const { tools } = await mcpHttp(app.running.baseUrl).result<{
      tools: { name: string; _meta?: object }[];
    }>('tools/list');
    expect(
      Object.fromEntries(tools.map((tool) => [tool.name, tool._meta])),
    ).toEqual({
      items_delete: { 'nestops/confirmation': 'required' },
      items_schedule: undefined,
      items_describe: undefined,
      items_pay: undefined,
      items_roots: undefined,
    });
  });

  it('records in the audit trail that the user confirmed, and not a declined call', async () => {
    AUDIT.length = 0;
    for (const action of ['accept', 'decline'] as const) {
      const client = v1Client(() => ({ action }), []);
      await client.connect(new HttpV1(new URL('/mcp', app.running.baseUrl)));
      await client.callTool({ name: 'items_delete', arguments: { id: 8 } });
      await client.close();
    }
    const calls = AUDIT.filter((event) => event.tool === 'items_delete');
    expect(
      calls.map(({ outcome, confirmed }) => ({ outcome, confirmed })),
    ).toEqual([
      { outcome: 'ok', confirmed: true },
      { outcome: 'BUSINESS_DECLINED_001', confirmed: undefined },
    ]);
  });
});
