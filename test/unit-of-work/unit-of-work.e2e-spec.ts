import { DATABASES, skipUnlessEnabled } from '../support/databases';
import {
  FIXTURE_TIMEOUT_MS,
  OuterRequestMiddleware,
  QueryLog,
  slowHandlers,
  startNamedDataSourceApp,
  startUnitOfWorkApp,
  type Database,
  type RunningFixture,
} from '../fixtures/unit-of-work-fixtures';
import { callTool, ClientV1, McpClients } from '../support/mcp-clients';
import { ACCEPT_BOTH, rpcRequest, mcpHttp } from '../support/mcp-http';

/**
 * The transaction interceptor of @nestops/typeorm in a fixture app, over
 * real MCP (SDK v1 client, real HTTP) on a real database: one transaction
 * per call, committed on success, rolled back on every kind of failure, and
 * never the outer HTTP request's.
 */

describe.each(DATABASES)('one transaction per call ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  let running: RunningFixture;
  let clients: McpClients;
  let mcp: ClientV1;

  beforeAll(async () => {
    running = await startUnitOfWorkApp(db.database as Database);
    clients = new McpClients(running.baseUrl);
    mcp = await clients.v1();
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  beforeEach(async () => {
    await running.dataSource.query('DELETE FROM uow_rows');
  });

  async function labels(app = running): Promise<string[]> {
    const rows = (await app.dataSource.query(
      'SELECT label FROM uow_rows ORDER BY id',
    )) as { label: string }[];
    return rows.map((row) => row.label);
  }

  it('commits both writes of a call that succeeds', async () => {
    const outcome = await callTool(mcp, 'rows_write', { label: 'ok' });

    expect(outcome.isError, outcome.text).toBe(false);
    expect(await labels()).toEqual(['ok 1', 'ok 2']);
  });

  it('leaves zero rows when the operation throws a business error after two writes', async () => {
    const outcome = await callTool(mcp, 'rows_write', {
      label: 'thrown',
      outcome: 'throw',
    });

    expect(outcome).toMatchObject({
      isError: true,
      text: 'BUSINESS_REJECTED_001: Rejected after two writes.',
    });
    expect(await labels()).toEqual([]);
  });

  it('leaves zero rows when an interceptor writes and then denies the call (isError)', async () => {
    const denied = await callTool(mcp, 'rows_audit', {
      label: 'denied',
      deny: true,
    });
    expect(denied).toMatchObject({
      isError: true,
      text: 'SECURITY_DENIED_001: Audit denied the call.',
    });
    expect(await labels()).toEqual([]);

    const allowed = await callTool(mcp, 'rows_audit', {
      label: 'allowed',
      deny: false,
    });
    expect(allowed.isError, allowed.text).toBe(false);
    expect(await labels()).toEqual(['allowed audit', 'allowed handler']);
  });

  it('does the same on a REST route: a POST that fails after two writes leaves none, one that succeeds both; @UnitOfWork(false) opts out', async () => {
    const post = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${running.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await response.body?.cancel();
      return response.status;
    };

    expect(await post('/rows', { label: 'rest', outcome: 'throw' })).toBe(409);
    expect(await labels()).toEqual([]);
    expect(await post('/rows', { label: 'rest' })).toBe(201);
    expect(await labels()).toEqual(['rest 1', 'rest 2']);
    expect(
      await post('/rows/loose', { label: 'loose', outcome: 'throw' }),
    ).toBe(409);
    expect(await labels()).toEqual(['rest 1', 'rest 2', 'loose 1', 'loose 2']);
  });

  it('leaves nothing written by a call whose result breaks its output contract (INTERNAL_ERROR_001)', async () => {
    const outcome = await callTool(mcp, 'rows_broken', { label: 'broken' });

    expect(outcome.isError).toBe(true);
    expect(outcome.text).toMatch(/^INTERNAL_ERROR_001: /);
    expect(await labels()).toEqual([]);
    const correlationId = /correlation id ([\w-]+)/.exec(outcome.text)?.[1];
    expect(
      running.logger
        .errors()
        .filter((error) => error.includes(`correlation id ${correlationId})`)),
    ).toEqual([
      expect.stringMatching(
        /^Operation rows\.broken failed unexpectedly .*\nOutputContractError: Operation rows\.broken returned a result that does not match its output schema \(WrittenDto\)/s,
      ),
    ]);
  });

  describe(`with a per-call timeout of ${FIXTURE_TIMEOUT_MS / 1000} s`, () => {
    let timed: RunningFixture;
    let timedClients: McpClients;
    let timedMcp: ClientV1;

    beforeAll(async () => {
      timed = await startUnitOfWorkApp(
        db.database as Database,
        FIXTURE_TIMEOUT_MS,
      );
      timedClients = new McpClients(timed.baseUrl);
      timedMcp = await timedClients.v1();
    });

    afterAll(async () => {
      await timedClients?.closeAll();
      await timed?.close();
    });

    it('leaves nothing written by a call that times out after writing, and answers isError', async () => {
      const outcome = await callTool(timedMcp, 'rows_slow', { label: 'late' });

      expect(outcome).toMatchObject({
        isError: true,
        text: `INTERNAL_TIMEOUT_001: The operation did not finish within ${FIXTURE_TIMEOUT_MS / 1000} s.`,
      });
      // The handler finishes after the answer: still nothing is committed.
      await Promise.allSettled(slowHandlers);
      expect(await labels(timed)).toEqual([]);
      // The data source is free for the next call.
      const next = await callTool(timedMcp, 'rows_write', { label: 'next' });
      expect(next.isError, next.text).toBe(false);
      expect(await labels(timed)).toEqual(['next 1', 'next 2']);
    });
  });

  // No call of these can reach the app's timeout (UNREACHED_TIMEOUT_MS): on
  // SQLite the 100 wait for each other in one queue, however slowly.
  it('keeps concurrent calls apart: of 100 at once, the 50 that fail leave nothing and the 50 that succeed keep both rows', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        callTool(mcp, 'rows_write', {
          label: `c${i}`,
          outcome: i % 2 === 0 ? 'succeed' : 'throw',
        }),
      ),
    );

    expect(
      outcomes.map((outcome, i) =>
        i % 2 === 0 ? outcome.text : outcome.isError && outcome.text,
      ),
    ).toEqual(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? JSON.stringify({ written: 2 })
          : 'BUSINESS_REJECTED_001: Rejected after two writes.',
      ),
    );
    const expected = Array.from({ length: 50 }, (_, i) => [
      `c${2 * i} 1`,
      `c${2 * i} 2`,
    ]).flat();
    expect((await labels()).sort()).toEqual(expected.sort());
  });

  it('opens no transaction for a read-only operation, one for a mutating one (TypeORM query logger)', async () => {
    const log = QueryLog.attach(running.dataSource);

    const listed = await callTool(mcp, 'rows_list');
    expect(listed.isError, listed.text).toBe(false);
    expect(log.queries.some((query) => /uow_rows/.test(query))).toBe(true);
    expect(log.transactionStatements()).toEqual([]);

    const from = log.queries.length;
    const written = await callTool(mcp, 'rows_write', { label: 'logged' });
    expect(written.isError, written.text).toBe(false);
    expect(log.transactionStatements(from)).toEqual([
      expect.stringMatching(/^(BEGIN|START TRANSACTION)/i),
      'COMMIT',
    ]);

    const failed = await callTool(mcp, 'rows_write', {
      label: 'logged',
      outcome: 'throw',
    });
    expect(failed.isError).toBe(true);
    expect(log.transactionStatements(from).slice(2)).toEqual([
      expect.stringMatching(/^(BEGIN|START TRANSACTION)/i),
      'ROLLBACK',
    ]);
  });

  it("runs the call in a CLS context, request-scoped instances and transaction that are not the outer HTTP request's", async () => {
    const response = await mcpHttp(running.baseUrl).post(
      rpcRequest(1, 'tools/call', { name: 'rows_inspect', arguments: {} }),
      { ...ACCEPT_BOTH, 'x-outer-transaction': 'open' },
    );
    expect(response.status).toBe(200);
    const outerProbe = response.header('x-outer-probe');
    const outerTxid = response.header('x-outer-txid');
    const body = response.json<{
      result: { structuredContent: Record<string, unknown> };
    }>();
    const seen = body.result.structuredContent;
    await Promise.all(OuterRequestMiddleware.pending);

    expect(outerProbe).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.outerMarker).toBeNull();
    expect(seen.probe).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.probe).not.toBe(outerProbe);
    expect(seen.inTransaction).toBe(true);
    if (db.database === 'postgres') {
      // The outer request held a transaction open all along: the call's is another.
      expect(outerTxid).toMatch(/^\d+$/);
      expect(seen.txid).not.toBe(outerTxid);
    }
  });
});

describe('one transaction per call on a named data source', () => {
  let running: RunningFixture;
  let clients: McpClients;

  beforeAll(async () => {
    running = await startNamedDataSourceApp();
    clients = new McpClients(running.baseUrl);
  });

  afterAll(async () => {
    await clients?.closeAll();
    await running?.close();
  });

  it('rolls back a failing call and commits a succeeding one, on the data source it was given', async () => {
    const mcp = await clients.v1();

    const failed = await callTool(mcp, 'report-rows_write', {
      label: 'named',
      outcome: 'throw',
    });
    expect(failed.isError).toBe(true);
    const ok = await callTool(mcp, 'report-rows_write', { label: 'named' });
    expect(ok.isError, ok.text).toBe(false);

    expect(
      await running.dataSource.query('SELECT label FROM uow_rows ORDER BY id'),
    ).toEqual([{ label: 'named 1' }, { label: 'named 2' }]);
  });
});
