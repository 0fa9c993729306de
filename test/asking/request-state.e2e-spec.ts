import {
  AskingModule,
  ItemStore,
  ShortStateModule,
} from '../fixtures/asking-fixtures';
import { mcpHttp } from '../support/mcp-http';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  modernRequest,
} from '../support/modern-mcp';
import { type RunningApp, startApp } from '../support/start-app';
import { useAskingApp } from '../support/asking-app';

/**
 * The 2026-07-28 round trip of a question: the client comes back with the
 * `requestState` it was given, which it can neither read nor change, and
 * which only the same caller's retry of the same call may use. Every
 * misuse is `-32602` (`PROTOCOLS_VALIDATION_012`) and nothing runs.
 */

const ELICITING = { ...MODERN_META, [CAPABILITIES_KEY]: { elicitation: {} } };
const ALICE = { authorization: 'Bearer alice-token' };
const BOB = { authorization: 'Bearer bob-token' };

interface Answer {
  readonly result?: {
    readonly resultType?: string;
    readonly requestState?: string;
    readonly inputRequests?: Record<string, unknown>;
    readonly structuredContent?: unknown;
    readonly isError?: boolean;
  };
  readonly error?: { code: number; message: string; data: { code: string } };
}

let id = 0;

async function callDelete(
  baseUrl: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
  retry: Record<string, unknown> = {},
  meta: Record<string, unknown> = ELICITING,
): Promise<{ status: number; body: Answer }> {
  const message = modernRequest(
    ++id,
    'tools/call',
    { name: 'items_delete', arguments: args, ...retry },
    meta,
  );
  const reply = await mcpHttp(baseUrl).post(message, headers, { modern: true });
  return { status: reply.status, body: reply.json<Answer>() };
}

const ACCEPTED = { inputResponses: { confirm: { action: 'accept' } } };

function expectRefused(body: Answer, reason: RegExp): void {
  expect(body.error?.code).toBe(-32602);
  expect(body.error?.data.code).toBe('PROTOCOLS_VALIDATION_012');
  expect(body.error?.message).toMatch(reason);
}

describe('requestState, sealed and bound', () => {
  const app = useAskingApp();

  async function firstRound(
    args: Record<string, unknown>,
    headers = ALICE,
  ): Promise<string> {
    const { status, body } = await callDelete(
      app.running.baseUrl,
      args,
      headers,
    );
    expect(status).toBe(200);
    expect(body.result?.resultType).toBe('input_required');
    expect(Object.keys(body.result?.inputRequests ?? {})).toEqual(['confirm']);
    expect(app.store.runs.delete).toBe(0);
    return body.result?.requestState ?? '';
  }

  it('runs the retry that brings its own state and the answer', async () => {
    const state = await firstRound({ id: 5 });
    const { body } = await callDelete(app.running.baseUrl, { id: 5 }, ALICE, {
      ...ACCEPTED,
      requestState: state,
    });
    expect(body.result?.structuredContent).toEqual({ deleted: 5 });
    expect(app.store.rows.has(5)).toBe(false);
  });

  it('refuses a state with one byte changed, and deletes nothing', async () => {
    const state = await firstRound({ id: 5 });
    const bytes = Buffer.from(state, 'base64url');
    bytes[bytes.length - 5] ^= 0x01;
    const { status, body } = await callDelete(
      app.running.baseUrl,
      { id: 5 },
      ALICE,
      {
        ...ACCEPTED,
        requestState: bytes.toString('base64url'),
      },
    );
    expect(status).toBe(200);
    expectRefused(body, /integrity check/);
    expect(app.store.rows.get(5)).toBe('item 5');
    expect(app.store.runs.delete).toBe(0);
  });

  it('refuses the state of one order replayed for another', async () => {
    const state = await firstRound({ id: 5 });
    const { body } = await callDelete(app.running.baseUrl, { id: 6 }, ALICE, {
      ...ACCEPTED,
      requestState: state,
    });
    expectRefused(body, /another request/);
    expect([app.store.rows.get(5), app.store.rows.get(6)]).toEqual([
      'item 5',
      'item 6',
    ]);
  });

  it("refuses bob's state replayed by alice", async () => {
    const state = await firstRound({ id: 7 }, BOB);
    const { body } = await callDelete(app.running.baseUrl, { id: 7 }, ALICE, {
      ...ACCEPTED,
      requestState: state,
    });
    expectRefused(body, /another request/);
    expect(app.store.rows.get(7)).toBe('item 7');
  });

  it('asks again for answers brought without a state, running nothing', async () => {
    const { body } = await callDelete(
      app.running.baseUrl,
      { id: 8 },
      ALICE,
      ACCEPTED,
    );
    expect(body.result?.resultType).toBe('input_required');
    expect(app.store.rows.get(8)).toBe('item 8');
    expect(app.store.runs.delete).toBe(0);
  });

  it('refuses a call that needs what the client did not declare: -32021, HTTP 400', async () => {
    const message = modernRequest(++id, 'tools/call', {
      name: 'items_describe',
      arguments: { id: 1 },
    });
    const reply = await mcpHttp(app.running.baseUrl).post(message, ALICE, {
      modern: true,
    });
    expect(reply.status).toBe(400);
    expect(reply.json<Answer>().error).toMatchObject({
      code: -32021,
      data: {
        code: 'PROTOCOLS_VALIDATION_013',
        requiredCapabilities: { sampling: {} },
      },
    });
  });

  it('asks for a page only a client that declared URL mode, else fails the call', async () => {
    const pay = (capabilities: object) =>
      mcpHttp(app.running.baseUrl).post(
        modernRequest(
          ++id,
          'tools/call',
          { name: 'items_pay', arguments: { id: 1 } },
          { ...MODERN_META, [CAPABILITIES_KEY]: capabilities },
        ),
        ALICE,
        { modern: true },
      );
    const asked = (await pay({ elicitation: { url: {} } })).json<Answer>();
    expect(asked.result?.inputRequests?.['elicitation-1']).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', url: 'https://pay.example.com/items/1' },
    });
    const formsOnly = (await pay({ elicitation: {} })).json<Answer>();
    expect(JSON.stringify(formsOnly.result)).toMatch(/BUSINESS_CLIENT_001: /);
  });

  it('refuses a confirmation the client cannot ask, deleting nothing', async () => {
    const { body } = await callDelete(
      app.running.baseUrl,
      { id: 2 },
      ALICE,
      {},
      MODERN_META,
    );
    expect(body.result?.isError).toBe(true);
    expect(JSON.stringify(body.result)).toMatch(/SECURITY_CONFIRMATION_001: /);
    expect(app.store.rows.get(2)).toBe('item 2');
  });
});

describe('requestState past its expiry, after a key rotation', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(ShortStateModule);
  });
  afterAll(() => running?.close());

  it('refuses it, and deletes nothing', async () => {
    const store = running.app.get(ItemStore);
    store.reset();
    const first = await callDelete(running.baseUrl, { id: 3 }, ALICE);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const { body } = await callDelete(running.baseUrl, { id: 3 }, ALICE, {
      ...ACCEPTED,
      requestState: first.body.result?.requestState,
    });
    expectRefused(body, /expired/);
    expect(store.rows.get(3)).toBe('item 3');
  });

  it('opens a state sealed with the older key', async () => {
    const older = await startApp(AskingModule);
    try {
      const store = running.app.get(ItemStore);
      store.reset();
      const first = await callDelete(older.baseUrl, { id: 4 }, ALICE);
      const { body } = await callDelete(running.baseUrl, { id: 4 }, ALICE, {
        ...ACCEPTED,
        requestState: first.body.result?.requestState,
      });
      expect(body.result?.structuredContent).toEqual({ deleted: 4 });
      expect(store.rows.has(4)).toBe(false);
    } finally {
      await older.close();
    }
  });
});
