import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../../src/database/database.options';
import { childEnv } from '../support/cli-process';
import {
  callerHeaders,
  CLIENT_INFO,
  ClientV1,
  ClientV2,
} from '../support/mcp-clients';
import { ALICE, REQUEST } from '../support/sample-cli';
import {
  type SampleProcess,
  startSampleProcess,
} from '../support/sample-process';
import { command } from '../support/sample-stdio-clients';

/**
 * The sample's calls that ask their client mid-call, answered by the
 * official SDK clients' own handlers: `orders_delete` asks the user to
 * confirm, `orders_schedule-delivery` asks for a slot, `orders_describe`
 * asks the client's model. Over HTTP (the built `npm start` server; SDK v1
 * speaks 2025-11-25, the question a request on the call's SSE stream; SDK
 * v2 speaks 2026-07-28, the question an `input_required` result it answers
 * and retries) and over stdio (the `mcp` command), on real SQLite rows.
 */

type Sdk = 'v1' | 'v2';
type Client = ClientV1 | ClientV2;
type Params = Record<string, unknown>;
type Answer = (params: Params) => object | Promise<object>;

/** What a client's handlers answer: each capability declared only when answered. */
interface Answers {
  readonly elicit?: Answer;
  readonly sample?: Answer;
}

/** One question a client was asked, as its handler saw it. */
interface Asked {
  readonly method: string;
  readonly params: Params;
}

const ACCEPT = () => ({ action: 'accept' });
const DECLINE = () => ({ action: 'decline' });
const DRAFT = {
  role: 'assistant',
  content: { type: 'text', text: 'A sturdy cast-iron teapot for six cups.' },
  model: 'e2e-model-1',
};

function clientOf(sdk: Sdk, answers: Answers, asked: Asked[]): Client {
  const capabilities = {
    ...(answers.elicit ? { elicitation: {} } : {}),
    ...(answers.sample ? { sampling: {} } : {}),
  };
  const record =
    (method: string, answer: Answer) => (request: { params: unknown }) => {
      // What the handler sees, without the SDK's own bookkeeping.
      const { _meta, ...params } = request.params as Params;
      void _meta;
      asked.push({ method, params });
      return answer(params) as never;
    };
  if (sdk === 'v1') {
    const client = new ClientV1(CLIENT_INFO, { capabilities });
    if (answers.elicit) {
      client.setRequestHandler(
        ElicitRequestSchema,
        record('elicitation/create', answers.elicit),
      );
    }
    if (answers.sample) {
      client.setRequestHandler(
        CreateMessageRequestSchema,
        record('sampling/createMessage', answers.sample),
      );
    }
    return client;
  }
  // 2026-07-28 where the server offers it: the SDK's default is 2025-11-25.
  const client = new ClientV2(CLIENT_INFO, {
    capabilities,
    versionNegotiation: { mode: 'auto' },
  });
  if (answers.elicit) {
    client.setRequestHandler(
      'elicitation/create',
      record('elicitation/create', answers.elicit),
    );
  }
  if (answers.sample) {
    client.setRequestHandler(
      'sampling/createMessage',
      record('sampling/createMessage', answers.sample),
    );
  }
  return client;
}

interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured?: Params;
}

async function call(
  client: Client,
  name: string,
  args: Params,
): Promise<ToolAnswer> {
  const result = (await client.callTool(
    { name, arguments: args },
    undefined,
    REQUEST,
  )) as {
    isError?: boolean;
    content?: { text?: string }[];
    structuredContent?: Params;
  };
  return {
    isError: result.isError === true,
    text: result.content?.[0]?.text ?? '',
    structured: result.structuredContent,
  };
}

/** The sample's SQLite file, read as it is now. */
function database(file: string) {
  const Database = sqliteDriver() as new (path: string) => {
    prepare(sql: string): { get(...args: unknown[]): unknown };
    close(): void;
  };
  const read = <T>(sql: string, ...args: unknown[]): T => {
    const db = new Database(file);
    try {
      return db.prepare(sql).get(...args) as T;
    } finally {
      db.close();
    }
  };
  return {
    orders: (id: number) =>
      read<{ n: number }>('SELECT COUNT(*) AS n FROM orders WHERE id = ?', id)
        .n,
    slotOf: (id: number) =>
      read<{ deliverySlot: string | null }>(
        'SELECT deliverySlot FROM orders WHERE id = ?',
        id,
      ).deliverySlot,
  };
}

// DeliverySlotDto as MCP's titled single-select enum.
const SLOT_FORM = {
  type: 'object',
  properties: {
    slot: {
      type: 'string',
      title: 'Delivery slot',
      description: 'When the order should be delivered.',
      default: 'morning',
      oneOf: [
        { const: 'morning', title: 'Morning (8:00 to 12:00)' },
        { const: 'afternoon', title: 'Afternoon (12:00 to 17:00)' },
        { const: 'evening', title: 'Evening (17:00 to 21:00)' },
      ],
    },
  },
  required: ['slot'],
};

const CONFIRMATION_REFUSED =
  "SECURITY_CONFIRMATION_001: Delete an order needs the user's confirmation, which this client cannot ask for.";

/** How one carrier connects a client as alice. */
interface Carrier {
  readonly label: string;
  readonly sdk: Sdk;
  readonly sqlite: () => string;
  connect(client: Client, language?: string): Promise<void>;
  /** The audit events of the app's log, where the test sees that log. */
  readonly audit?: () => Params[];
  /** What a client that cannot elicit gets for orders_delete. */
  readonly unconfirmable: string;
}

describe('the sample asks its client mid-call', () => {
  let server: SampleProcess;
  const httpFile = join(mkdtempSync(join(tmpdir(), 'asking-')), 'o.sqlite');
  const stdioFile = join(mkdtempSync(join(tmpdir(), 'asking-')), 'o.sqlite');

  beforeAll(async () => {
    // npm start as it is, no MCP_STATE_KEY; its audit trail on its log.
    server = await startSampleProcess(
      childEnv({ SQLITE_PATH: httpFile, MCP_AUDIT: 'true', NO_COLOR: '1' }),
    );
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  /** The audit events the server logged, parsed. */
  const auditEvents = (): Params[] =>
    server
      .output()
      .split('\n')
      .filter((line) => line.includes('[McpAudit]'))
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Params);

  const http = (sdk: Sdk, unconfirmable: string): Carrier => ({
    label: `HTTP, SDK ${sdk}`,
    sdk,
    sqlite: () => httpFile,
    audit: auditEvents,
    unconfirmable,
    async connect(client, language) {
      const url = new URL('/mcp', server.baseUrl);
      const requestInit = {
        headers: callerHeaders({ apiKey: 'dev-alice-key', language }),
      };
      await (sdk === 'v1'
        ? (client as ClientV1).connect(new HttpV1(url, { requestInit }))
        : (client as ClientV2).connect(new HttpV2(url, { requestInit })));
    },
  });

  // The command line logs warnings and errors only: no audit trail to read.
  const stdio = (sdk: Sdk, unconfirmable: string): Carrier => ({
    label: `stdio, SDK ${sdk}`,
    sdk,
    sqlite: () => stdioFile,
    unconfirmable,
    async connect(client) {
      const spawned = command([], {
        SQLITE_PATH: stdioFile,
        MCP_AUTHORIZATION: ALICE,
      });
      await (sdk === 'v1'
        ? (client as ClientV1).connect(new StdioV1(spawned), REQUEST)
        : (client as ClientV2).connect(new StdioV2(spawned), REQUEST));
    },
  });

  describe.each([
    // A 2025-11-25 client over HTTP is not known to lack elicitation: the
    // question goes out on the call's stream and the SDK answers "method
    // not found", which a confirmation reports as SECURITY_CONFIRMATION_001.
    http('v1', CONFIRMATION_REFUSED),
    http('v2', CONFIRMATION_REFUSED),
    // Over stdio the client's initialize declares what it can answer (also
    // when runCli's early greeting answers it): no question goes out.
    stdio('v1', CONFIRMATION_REFUSED),
    stdio('v2', CONFIRMATION_REFUSED),
  ])('$label', (carrier) => {
    const db = () => database(carrier.sqlite());
    /** What the asking client's handlers answer in the current test. */
    let answers: Answers = {};
    let asked: Asked[] = [];
    let asking: Client;
    let plain: Client;

    beforeAll(async () => {
      // One client whose handlers answer as the test says, one that
      // declares nothing: two processes per stdio carrier, not one per call.
      asking = clientOf(
        carrier.sdk,
        {
          elicit: (params) => answers.elicit!(params),
          sample: (params) => answers.sample!(params),
        },
        (asked = []),
      );
      plain = clientOf(carrier.sdk, {}, []);
      await Promise.all([carrier.connect(asking), carrier.connect(plain)]);
      // The `mcp` command loads the app on the first call: both at once.
      await Promise.all([asking.listTools(), plain.listTools()]);
      for (const client of [asking, plain]) {
        if (client instanceof ClientV2) {
          expect(client.getProtocolEra()).toBe('modern');
        }
      }
    });
    beforeEach(() => {
      asked.length = 0;
      answers = {};
    });
    afterAll(async () => {
      await Promise.all([asking?.close(), plain?.close()]);
    });

    async function newOrder(name: string): Promise<number> {
      const created = await call(plain, 'orders_create', { name, amount: 2 });
      expect(created.isError, created.text).toBe(false);
      return created.structured?.id as number;
    }

    it('deletes an order only once the user accepts, asking "Delete order <id>?"', async () => {
      const id = await newOrder('teapot');
      const audited = carrier.audit?.().length ?? 0;
      answers = { elicit: ACCEPT };
      const deleted = await call(asking, 'orders_delete', { id });
      expect(deleted).toMatchObject({
        isError: false,
        structured: { id, deleted: true },
      });
      expect(asked).toEqual([
        {
          method: 'elicitation/create',
          params: {
            message: `Delete order ${id}? It cannot be undone.`,
            requestedSchema: { type: 'object', properties: {} },
          },
        },
      ]);
      expect(db().orders(id)).toBe(0);
      const audit = carrier.audit;
      if (audit) {
        // The run that deleted, confirmed; in 2026-07-28 after a first
        // round that stopped to ask.
        await vi.waitFor(() =>
          expect(
            audit()
              .slice(audited)
              .filter((event) => event.tool === 'orders_delete')
              .map(({ outcome, confirmed }) => ({ outcome, confirmed })),
          ).toEqual([
            ...(carrier.sdk === 'v2'
              ? [{ outcome: 'INTERNAL_INPUT_001', confirmed: undefined }]
              : []),
            { outcome: 'ok', confirmed: true },
          ]),
        );
      }
    });

    it.each([
      ['decline', 'declined'],
      ['cancel', 'cancelled'],
    ])('leaves the order when the user answers %s', async (action, done) => {
      const id = await newOrder('teapot');
      answers = { elicit: () => ({ action }) };
      const refused = await call(asking, 'orders_delete', { id });
      expect(refused).toEqual({
        isError: true,
        text: `BUSINESS_DECLINED_00${action === 'decline' ? 1 : 2}: The user ${done} Delete an order; nothing was done.`,
        structured: undefined,
      });
      expect(db().orders(id)).toBe(1);
    });

    it(`refuses orders_delete to a client that cannot ask the user (${carrier.unconfirmable.slice(0, 25)}), leaving the order`, async () => {
      const id = await newOrder('teapot');
      const refused = await call(plain, 'orders_delete', { id });
      expect(refused).toEqual({
        isError: true,
        text: carrier.unconfirmable,
        structured: undefined,
      });
      expect(db().orders(id)).toBe(1);
    });

    it('asks for the missing delivery slot with the form of DeliverySlotDto and stores the answer', async () => {
      const id = await newOrder('kettle');
      answers = {
        elicit: () => ({ action: 'accept', content: { slot: 'evening' } }),
      };
      const scheduled = await call(asking, 'orders_schedule-delivery', { id });
      expect(scheduled).toMatchObject({
        isError: false,
        structured: { id, slot: 'evening' },
      });
      expect(asked).toEqual([
        {
          method: 'elicitation/create',
          params: {
            message: `When should order ${id} (kettle) be delivered?`,
            requestedSchema: SLOT_FORM,
          },
        },
      ]);
      expect(db().slotOf(id)).toBe('evening');
    });

    it('stores the slot the input names without asking, and nothing when the user declines the form', async () => {
      const id = await newOrder('kettle');
      answers = { elicit: DECLINE };
      const declined = await call(asking, 'orders_schedule-delivery', { id });
      expect(declined.text).toBe(
        `BUSINESS_DECLINED_001: The user declined the delivery of order ${id}; nothing was done.`,
      );
      expect(db().slotOf(id)).toBeNull();
      const given = await call(plain, 'orders_schedule-delivery', {
        id,
        slot: 'afternoon',
      });
      expect(given.structured).toEqual({ id, slot: 'afternoon' });
      expect(db().slotOf(id)).toBe('afternoon');
      expect(asked.map((each) => each.method)).toEqual(['elicitation/create']);
    });

    it("drafts orders_describe's text with the client's model", async () => {
      const id = await newOrder('teapot');
      answers = { sample: () => DRAFT };
      const described = await call(asking, 'orders_describe', { id });
      expect(described).toMatchObject({
        isError: false,
        structured: {
          id,
          name: 'teapot',
          description: DRAFT.content.text,
          model: DRAFT.model,
        },
      });
      expect(asked).toEqual([
        {
          method: 'sampling/createMessage',
          params: {
            systemPrompt:
              'You write product descriptions for delivery notes: one or two sentences, in the language en-US, nothing else.',
            messages: [
              {
                role: 'user',
                content: {
                  type: 'text',
                  text: 'Describe the product "teapot".',
                },
              },
            ],
            maxTokens: 200,
          },
        },
      ]);
    });

    it('answers orders_describe with BUSINESS_CLIENT_001 for a client that cannot sample', async () => {
      const id = await newOrder('teapot');
      const refused = await call(plain, 'orders_describe', { id });
      expect(refused).toEqual({
        isError: true,
        text: 'BUSINESS_CLIENT_001: This call asks the client for sampling, which the client cannot answer.',
        structured: undefined,
      });
    });
  });

  // The confirmation is asked before the call's unit of work takes its
  // turn on SQLite's one connection: other calls go on meanwhile.
  it('HTTP, SDK v1: other calls go on while a user thinks about a confirmation', async () => {
    const carrier = http('v1', CONFIRMATION_REFUSED);
    let answer!: () => void;
    const thinking = new Promise<object>((done) => {
      answer = () => done({ action: 'decline' });
    });
    const asked: Asked[] = [];
    const deciding = clientOf('v1', { elicit: () => thinking }, asked);
    const other = clientOf('v1', {}, []);
    await Promise.all([carrier.connect(deciding), carrier.connect(other)]);
    try {
      const created = await call(other, 'orders_create', {
        name: 'x',
        amount: 1,
      });
      const pending = call(deciding, 'orders_delete', {
        id: created.structured?.id,
      });
      await vi.waitFor(() => expect(asked).toHaveLength(1));
      const listed = await Promise.race([
        call(other, 'orders_recent', {}).then(() => 'answered'),
        new Promise((done) => setTimeout(() => done('still waiting'), 3000)),
      ]);
      answer();
      await pending;
      expect(listed).toBe('answered');
    } finally {
      answer();
      await Promise.all([deciding.close(), other.close()]);
    }
  });

  it.each(['v1', 'v2'] as const)(
    'HTTP, SDK %s: asks a zh-CN caller in Chinese',
    async (sdk) => {
      const carrier = http(sdk, CONFIRMATION_REFUSED);
      const asked: Asked[] = [];
      const client = clientOf(sdk, { elicit: DECLINE }, asked);
      await carrier.connect(client, 'zh-CN');
      try {
        const { structured } = await call(client, 'orders_create', {
          name: '茶壶',
          amount: 1,
        });
        const id = structured?.id as number;
        const declined = await call(client, 'orders_delete', { id });
        expect(asked.map((each) => each.params.message)).toEqual([
          `删除订单 ${id}？删除后无法恢复。`,
        ]);
        expect(declined.text).toBe(
          'BUSINESS_DECLINED_001: 用户拒绝了 删除订单；未做任何更改。',
        );
        expect(database(httpFile).orders(id)).toBe(1);
      } finally {
        await client.close();
      }
    },
  );

  it("HTTP, SDK v1: schedules no delivery of another tenant's order, and asks nothing", async () => {
    const url = new URL('/mcp', server.baseUrl);
    const connect = async (client: ClientV1, tenant: string) => {
      const headers = callerHeaders({ apiKey: 'dev-alice-key', tenant });
      await client.connect(new HttpV1(url, { requestInit: { headers } }));
      return client;
    };
    const asked: Asked[] = [];
    const inDefault = await connect(
      clientOf('v1', {}, []) as ClientV1,
      'default',
    );
    const inAcme = await connect(
      clientOf('v1', { elicit: ACCEPT }, asked) as ClientV1,
      'acme',
    );
    try {
      const { structured } = await call(inDefault, 'orders_create', {
        name: 'kettle',
        amount: 1,
      });
      const id = structured?.id as number;
      for (const args of [{ id }, { id, slot: 'evening' }]) {
        const refused = await call(inAcme, 'orders_schedule-delivery', args);
        expect(refused.text).toBe(
          `BUSINESS_NOTFOUND_001: Order ${id} does not exist.`,
        );
      }
      expect(asked).toEqual([]);
      expect(database(httpFile).slotOf(id)).toBeNull();
    } finally {
      await Promise.all([inDefault.close(), inAcme.close()]);
    }
  });

  it('says once, at startup, that a random key seals the 2026-07-28 questions (no MCP_STATE_KEY)', () => {
    expect(
      server.output().match(/MCP_STATE_KEY is not set: a random key/g),
    ).toHaveLength(1);
  });
});
