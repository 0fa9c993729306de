import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { AskingModule, ItemStore } from '../fixtures/asking-fixtures';
import { CLIENT_INFO, ClientV1, ClientV2 } from '../support/mcp-clients';
import { type RunningApp, startApp } from '../support/start-app';

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
  const client = new ClientV2(CLIENT_INFO, {
    capabilities: { elicitation: {} },
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
  let running: RunningApp;
  let store: ItemStore;
  beforeAll(async () => {
    running = await startApp(AskingModule);
    store = running.app.get(ItemStore);
  });
  beforeEach(() => store.reset());
  afterAll(() => running?.close());

  const url = () => new URL('/mcp', running.baseUrl);

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
      const asked: Asked[] = [];
      const client = await connect(confirmOnly('accept'), asked);
      const result = await client.callTool({
        name: 'items_delete',
        arguments: { id: 3 },
      });
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ deleted: 3 });
      expect(store.rows.has(3)).toBe(false);
      expect(store.runs.delete).toBe(1);
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
        expect(store.rows.get(4)).toBe('item 4');
        expect(store.runs.delete).toBe(0);
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
});
