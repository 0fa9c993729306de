import {
  BadRequestException,
  type CanActivate,
  Controller,
  Delete,
  Get,
  Head,
  Injectable,
  Module,
  Options,
  Patch,
  Post,
  Put,
  Res,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Propagation, TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { McpModule } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { OperationTestClient } from '@nestops/operations/testing';
import {
  CallEndedError,
  TransactionInterceptor,
  UnitOfWork,
  UnitOfWorkModule,
} from '@nestops/typeorm';
import { ClsService } from 'nestjs-cls';
import { getEventListeners } from 'node:events';
import { defer, EMPTY, lastValueFrom, of } from 'rxjs';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { testDataSource } from '../support/test-data-source';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import { dropSchema, newSchema } from '../support/pg-schema';
import { startApp, type RunningApp, useApp } from '../support/start-app';

/**
 * Rules of the unit of work that each held against one broken line: the
 * isolation level asked for is the one the transaction has (PostgreSQL),
 * REST methods other than GET, HEAD and OPTIONS run in a transaction, and a
 * call that times out while it waits for SQLite's single connection never
 * runs.
 */

@Entity('rule_rows')
class RuleRow {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  label: string;
}

/** Holds `gate.hold` until the test opens the gate. */
@Injectable()
class Gate {
  private readonly waiting: Array<() => void> = [];
  private readonly arrivals: Array<() => void> = [];
  held = 0;

  async hold(): Promise<void> {
    this.held += 1;
    this.arrivals.splice(0).forEach((arrived) => arrived());
    await new Promise<void>((open) => this.waiting.push(open));
  }

  /** Resolves once `hold` has been called once more than now. */
  untilNextHold(): Promise<void> {
    return this.untilHeld(this.held + 1);
  }

  async untilHeld(count: number): Promise<void> {
    while (this.held < count) {
      await new Promise<void>((arrived) => this.arrivals.push(arrived));
    }
  }

  open(): void {
    this.waiting.splice(0).forEach((open) => open());
  }
}

/** A guard that lets a call through only once the gate opens. */
@Injectable()
class GateGuard implements CanActivate {
  constructor(private readonly gate: Gate) {}

  async canActivate(): Promise<boolean> {
    await this.gate.hold();
    return true;
  }
}

@Injectable()
class RuleOperations {
  /** How often `rows.add` has started. */
  adds = 0;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly gate: Gate,
  ) {}

  private async level(): Promise<string> {
    const rows: Array<{ transaction_isolation: string }> =
      await this.txHost.tx.query('SHOW transaction_isolation');
    return rows[0].transaction_isolation;
  }

  @Operation({
    id: 'iso.serializable',
    transaction: { isolation: 'SERIALIZABLE' },
  })
  async serializable(): Promise<{ level: string }> {
    return { level: await this.level() };
  }

  @Operation({
    id: 'iso.repeatable',
    readOnly: true,
    transaction: { isolation: 'REPEATABLE READ' },
  })
  async repeatable(): Promise<{ level: string }> {
    return { level: await this.level() };
  }

  @Operation({ id: 'iso.plain' })
  async plain(): Promise<{ level: string }> {
    return { level: await this.level() };
  }

  @Operation({ id: 'gate.hold' })
  async hold(): Promise<{ held: true }> {
    await this.gate.hold();
    return { held: true };
  }

  @Operation({ id: 'rows.add' })
  async add(): Promise<{ added: true }> {
    this.adds += 1;
    await this.txHost.tx.getRepository(RuleRow).save({ label: 'added' });
    return { added: true };
  }

  /** The write of the last `rows.addLate` that started. */
  lateWrite?: Promise<unknown>;

  /** Writes a row, reached only once `GateGuard` lets the call through. */
  @Operation({ id: 'rows.addLate' })
  @UseGuards(GateGuard)
  async addLate(): Promise<{ added: true }> {
    this.lateWrite = this.txHost.tx
      .getRepository(RuleRow)
      .save({ label: 'late' });
    await this.lateWrite;
    return { added: true };
  }

  /** What the last write made once the gate opened came to. */
  afterGate?: { written: true } | { refused: unknown };

  /** Once the gate opens, writes a row and records what came of it. */
  private async writeAfterGate(label: string): Promise<void> {
    await this.gate.hold();
    try {
      await this.txHost.tx.getRepository(RuleRow).save({ label });
      this.afterGate = { written: true };
    } catch (error) {
      this.afterGate = { refused: error };
    }
  }

  /** Writes a row once the gate opens, inside its transaction. */
  @Operation({ id: 'rows.addAfterGate' })
  async addAfterGate(): Promise<{ added: true }> {
    await this.writeAfterGate('after');
    return { added: true };
  }

  /** Writes a row in its call's transaction and one in a nested transaction. */
  @Operation({ id: 'rows.addNested' })
  async addNested(): Promise<{ added: number }> {
    await this.txHost.tx.getRepository(RuleRow).save({ label: 'outer' });
    await this.txHost.withTransaction(Propagation.Nested, () =>
      this.txHost.tx.getRepository(RuleRow).save({ label: 'nested' }),
    );
    return { added: 2 };
  }

  /** The nested transaction of the last `rows.addNestedAfterGate`. */
  nested?: Promise<unknown>;

  /** Writes a row, then another once the gate opens, in a nested transaction. */
  @Operation({ id: 'rows.addNestedAfterGate' })
  async addNestedAfterGate(): Promise<{ added: true }> {
    await this.txHost.tx.getRepository(RuleRow).save({ label: 'outer' });
    this.nested = this.txHost.withTransaction(Propagation.Nested, () =>
      this.writeAfterGate('nested after'),
    );
    await this.nested;
    return { added: true };
  }

  /** Answers at once, leaving a write to run once the gate opens. */
  @Operation({ id: 'rows.addInBackground' })
  addInBackground(): { started: true } {
    void this.writeAfterGate('later');
    return { started: true };
  }

  /** Writes a row that a PostgreSQL trigger makes slow to commit. */
  @Operation({ id: 'rows.addSlow' })
  async addSlow(): Promise<{ added: true }> {
    await this.txHost.tx.getRepository(RuleRow).save({ label: 'slow' });
    return { added: true };
  }

  /** The signal of the last `rows.signal` call. */
  signal?: AbortSignal;

  @Operation({
    input: null,
    id: 'rows.signal',
    readOnly: true,
    transaction: true,
  })
  keepSignal(_input: unknown, context: InvocationContext): { kept: true } {
    this.signal = context.signal;
    return { kept: true };
  }

  @Operation({ id: 'rows.count', readOnly: true, transaction: true })
  async count(): Promise<{ count: number }> {
    return { count: await this.txHost.tx.getRepository(RuleRow).count() };
  }
}

/** Each route answers whether it ran in a transaction; `/fail` writes, then throws. */
@Controller('rule-rows')
class RuleRowsController {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  private report(): { inTransaction: boolean } {
    return { inTransaction: this.txHost.isTransactionActive() };
  }

  /**
   * Express serves a HEAD with the GET route declared first, and a HEAD
   * answer has no body: so the report is a header too.
   */
  @Get()
  @Head()
  get(
    @Res({ passthrough: true }) res: { setHeader(n: string, v: string): void },
  ) {
    const report = this.report();
    res.setHeader('X-In-Transaction', String(report.inTransaction));
    return report;
  }

  @Options()
  options() {
    return this.report();
  }

  @Post()
  post() {
    return this.report();
  }

  @Put()
  put() {
    return this.report();
  }

  @Patch()
  patch() {
    return this.report();
  }

  @Delete()
  remove() {
    return this.report();
  }

  @Delete('fail')
  async removeAndFail(): Promise<never> {
    await this.txHost.tx.getRepository(RuleRow).save({ label: 'deleted?' });
    throw new BadRequestException('rolled back');
  }

  @Post('repeatable')
  @UnitOfWork({ isolation: 'REPEATABLE READ' })
  async repeatable(): Promise<{ level: string }> {
    const rows: Array<{ transaction_isolation: string }> =
      await this.txHost.tx.query('SHOW transaction_isolation');
    return { level: rows[0].transaction_isolation };
  }
}

interface RuleApp extends RunningApp {
  readonly dataSource: DataSource;
  readonly operations: RuleOperations;
  readonly gate: Gate;
}

async function startRuleApp(database: 'sqlite' | 'postgres'): Promise<RuleApp> {
  const url = process.env.DATABASE_URL as string;
  const schema = database === 'postgres' ? await newSchema(url) : undefined;
  @Module({
    imports: [
      TypeOrmModule.forRoot(testDataSource(database, [RuleRow], schema)),
      UnitOfWorkModule.forRoot(),
      McpModule.forRoot(),
    ],
    controllers: [RuleRowsController],
    providers: [RuleOperations, Gate, GateGuard],
  })
  class RuleModule {}
  const running = await startApp(RuleModule, { logger: ['error'] });
  return {
    ...running,
    dataSource: running.app.get(DataSource),
    operations: running.app.get(RuleOperations),
    gate: running.app.get(Gate),
    close: async () => {
      await running.close();
      if (schema) {
        await dropSchema(url, schema);
      }
    },
  };
}

/** Calls `operationId` with a 50 ms deadline that passes while the gate holds it. */
async function timeOutAtTheGate(
  running: RuleApp,
  operationId: string,
): Promise<void> {
  const held = running.gate.untilNextHold();
  const timedOut = OperationTestClient.create(running.app).invoke(
    operationId,
    {},
    { timeout: 50 },
  );
  await held;
  const answer = await timedOut;
  expect(answer.ok || answer.failure.code).toBe('INTERNAL_TIMEOUT_001');
}

/** Opens the gate and waits for the refusal of the write made after it. */
async function openedGateOutcome(running: RuleApp): Promise<Error | undefined> {
  running.gate.open();
  return vi.waitFor(() => {
    const outcome = running.operations.afterGate;
    expect(outcome).toBeDefined();
    return (outcome as { refused?: Error }).refused;
  });
}

/** The app's interceptor, made as UnitOfWorkModule makes it, from the app's own parts. */
function interceptorOf(app: RuleApp['app']): TransactionInterceptor {
  return new TransactionInterceptor(
    app.get(Reflector),
    app.get(ClsService),
    app.get(TransactionHost<TransactionalAdapterTypeOrm>),
    app.get(DataSource),
  );
}

/** The context of `RuleRowsController.post` as a carrier of `type` gives it. */
function postContext(type: string): ExecutionContextHost {
  const context = new ExecutionContextHost(
    [{ method: 'POST' }, {}],
    RuleRowsController,
    RuleRowsController.prototype.post,
  );
  context.setType(type);
  return context;
}

describe.each(DATABASES)('unit-of-work rules ($name)', (db) => {
  if (!skipUnlessEnabled(db)) {
    return;
  }

  const running = useApp(() => startRuleApp(db.database));
  // Each test counts the rows its own calls left.
  beforeEach(() => running().dataSource.getRepository(RuleRow).clear());

  it.each([
    ['GET', false],
    ['HEAD', false],
    ['OPTIONS', false],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', true],
  ])('a REST %s runs in a transaction: %s', async (method, expected) => {
    const response = await fetch(`${running().baseUrl}/rule-rows`, { method });
    expect(response.status).toBeLessThan(300);
    if (method === 'HEAD') {
      expect(response.headers.get('x-in-transaction')).toBe(String(expected));
    } else {
      expect(await response.json()).toEqual({ inTransaction: expected });
    }
  });

  it('runs a handler of another kind of context (RPC, WebSocket) unmarked without a transaction', async () => {
    const { app } = running();
    const txHost = app.get(TransactionHost<TransactionalAdapterTypeOrm>);
    const interceptor = interceptorOf(app);
    for (const type of ['rpc', 'ws']) {
      const inTransaction = await lastValueFrom(
        interceptor.intercept(postContext(type), {
          handle: () => defer(() => of(txHost.isTransactionActive())),
        }),
      );
      expect({ type, inTransaction }).toEqual({ type, inTransaction: false });
    }
  });

  it('answers undefined, committed, for a handler whose observable completes without a value', async () => {
    const interceptor = interceptorOf(running().app);
    await expect(
      lastValueFrom(
        interceptor.intercept(postContext('http'), { handle: () => EMPTY }),
        {
          defaultValue: 'no value',
        },
      ),
    ).resolves.toBeUndefined();
  });

  it('leaves no abort listener of its own on the call signal once the call is over', async () => {
    const result = await OperationTestClient.create(running().app).invoke(
      'rows.signal',
      {},
      { timeout: 5_000 },
    );
    expect(result.ok).toBe(true);
    const { signal } = running().operations;
    expect(signal).toBeDefined();
    expect(getEventListeners(signal as AbortSignal, 'abort')).toEqual([]);
  });

  it('rolls back what a failing REST DELETE wrote', async () => {
    const response = await fetch(`${running().baseUrl}/rule-rows/fail`, {
      method: 'DELETE',
    });
    expect(response.status).toBe(400);
    expect(await running().dataSource.getRepository(RuleRow).count()).toBe(0);
  });

  if (db.database === 'postgres') {
    it.each([
      ['iso.serializable', 'serializable'],
      ['iso.repeatable', 'repeatable read'],
      ['iso.plain', 'read committed'],
    ])('%s runs at the isolation level it asks for: %s', async (id, level) => {
      const result = await OperationTestClient.create(running().app).invoke(id);
      expect(result).toEqual({
        ok: true,
        value: { level },
        json: JSON.stringify({ level }),
      });
    });

    it('@UnitOfWork({ isolation }) on a REST route runs at that level', async () => {
      const response = await fetch(
        `${running().baseUrl}/rule-rows/repeatable`,
        {
          method: 'POST',
        },
      );
      expect(await response.json()).toEqual({ level: 'repeatable read' });
    });
  }

  it('never starts a handler whose deadline passed before its transaction began', async () => {
    const { gate, operations, dataSource } = running();
    // The deadline passes while the app's guard holds the call.
    await timeOutAtTheGate(running(), 'rows.addLate');

    // The guard lets it through once the call has timed out: its handler
    // must not start (it would write outside the rolled-back transaction).
    gate.open();
    for (let check = 0; check < 10; check += 1) {
      await new Promise((settle) => setTimeout(settle, 50));
      expect(operations.lateWrite).toBeUndefined();
    }
    expect(await dataSource.getRepository(RuleRow).count()).toBe(0);
  });

  it('refuses a write its handler makes after the call timed out, and commits nothing', async () => {
    const { gate, operations, dataSource } = running();
    await timeOutAtTheGate(running(), 'rows.addAfterGate');

    gate.open();
    await vi.waitFor(() => expect(operations.afterGate).toBeDefined());
    expect(operations.afterGate).toEqual({ refused: expect.any(Error) });
    const refused = (operations.afterGate as { refused: Error }).refused;
    expect(refused.name).toBe('CallEndedError');
    expect(refused.message).toBe(
      'The call of rows.addAfterGate has ended (answered, timed out or cancelled): its data access through TransactionHost refuses further work.',
    );
    expect(await dataSource.getRepository(RuleRow).count()).toBe(0);
    // Outside any call the data source's manager is as it was.
    const txHost = running().app.get(
      TransactionHost<TransactionalAdapterTypeOrm>,
    );
    expect(await txHost.tx.getRepository(RuleRow).count()).toBe(0);
  });

  it('runs a nested transaction of a call, committed with the call', async () => {
    const result = await OperationTestClient.create(running().app).invoke(
      'rows.addNested',
    );
    expect(result).toMatchObject({ ok: true, value: { added: 2 } });
    const rows = await running().dataSource.getRepository(RuleRow).find();
    expect(rows.map((row) => row.label).sort()).toEqual(['nested', 'outer']);
  });

  it('rolls back the whole call that timed out in a nested transaction, and refuses the nested write', async () => {
    const { operations, dataSource } = running();
    operations.afterGate = undefined;
    await timeOutAtTheGate(running(), 'rows.addNestedAfterGate');

    expect((await openedGateOutcome(running()))?.name).toBe('CallEndedError');
    // Its end (a savepoint's commit) is refused too.
    await expect(operations.nested).rejects.toThrow(CallEndedError);
    // Nothing of the call is left, and the next call's transaction is its own.
    expect(
      await OperationTestClient.create(running().app).invoke('rows.count'),
    ).toMatchObject({ ok: true, value: { count: 0 } });
    expect(await dataSource.getRepository(RuleRow).count()).toBe(0);
  });

  it('refuses a write left running after the call was answered', async () => {
    const client = OperationTestClient.create(running().app);
    const { gate, operations, dataSource } = running();
    operations.afterGate = undefined;
    const held = gate.untilNextHold();
    expect(await client.invoke('rows.addInBackground')).toMatchObject({
      ok: true,
    });

    await held;
    expect((await openedGateOutcome(running()))?.name).toBe('CallEndedError');
    expect(await dataSource.getRepository(RuleRow).count()).toBe(0);
  });

  if (db.database === 'postgres') {
    it('answers a call whose commit outlasts its deadline with what the commit did', async () => {
      const { dataSource } = running();
      // A deferred constraint trigger: the INSERT is quick, its COMMIT takes 0.6 s.
      await dataSource.query(`
        CREATE FUNCTION slow_commit() RETURNS trigger AS $$
        BEGIN PERFORM pg_sleep(0.6); RETURN NULL; END $$ LANGUAGE plpgsql`);
      await dataSource.query(`
        CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON rule_rows
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.label = 'slow') EXECUTE FUNCTION slow_commit()`);
      const client = OperationTestClient.create(running().app);

      const started = Date.now();
      const answer = await client.invoke('rows.addSlow', {}, { timeout: 200 });

      expect(answer).toEqual({
        ok: true,
        value: { added: true },
        json: '{"added":true}',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(await dataSource.getRepository(RuleRow).count()).toBe(1);
    });
  }

  if (db.database === 'sqlite') {
    it('never runs a call that timed out while it waited for the single connection', async () => {
      const client = OperationTestClient.create(running().app);
      const { gate, operations } = running();
      const held = gate.untilNextHold();
      const holding = client.invoke('gate.hold');
      await held;

      const timedOut = await client.invoke('rows.add', {}, { timeout: 50 });
      expect(timedOut.ok).toBe(false);
      if (!timedOut.ok) {
        expect(timedOut.failure.code).toBe('INTERNAL_TIMEOUT_001');
      }

      gate.open();
      expect(await holding).toEqual({
        ok: true,
        value: { held: true },
        json: '{"held":true}',
      });
      // Queued after the timed-out call: it runs once that call's turn is over.
      expect(await client.invoke('rows.count')).toEqual({
        ok: true,
        value: { count: 0 },
        json: '{"count":0}',
      });
      expect(operations.adds).toBe(0);
    });
  }
});
