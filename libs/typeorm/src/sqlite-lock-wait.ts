import { ServiceUnavailableException } from '@nestjs/common';
import { OperationException } from '@nestops/operations';
import { formatFailure } from '@nestops/operations/internal';
import { ClsServiceManager } from 'nestjs-cls';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { CALL_STATE, type CallState } from './call-scoped.adapter.js';

/** better-sqlite3's own busy timeout, as TypeORM opens it without `timeout`. */
const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** The first pause after a locked statement, doubled on each retry up to the longest. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/** The parts of TypeORM's better-sqlite3 driver this touches. */
interface BetterSqlite3Driver {
  readonly options: { readonly timeout?: number };
  readonly databaseConnection?: { pragma(source: string): unknown };
  createQueryRunner(mode: 'master'): QueryRunner;
}

const waiting = new WeakSet<QueryRunner>();

/**
 * Whether `error` (TypeORM's `QueryFailedError`, or the driver's own) says
 * that another connection holds the database: `SQLITE_BUSY` and its
 * extended codes.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown })
    ?.driverError?.code;
  const own = (error as { code?: unknown } | undefined)?.code;
  return [code, own].some(
    (c) => typeof c === 'string' && c.startsWith('SQLITE_BUSY'),
  );
}

/**
 * Makes a locked SQLite database (another process or connection holding
 * its lock, `BEGIN EXCLUSIVE` in `sqlite3`, say) wait without holding the
 * event loop. better-sqlite3 waits for a lock inside the statement, for its
 * busy timeout, and nothing else runs in the process meanwhile: not a
 * `ping`, nor a call's own deadline. Here the connection's busy timeout is
 * 0 and the statement that finds the database locked is run again after a
 * pause (2 ms, doubled up to 50 ms) until it gets the lock, while the rest
 * of the app runs: as long as the data source's `timeout` (better-sqlite3's
 * busy timeout, default 5 s), then `INTERNAL_UNAVAILABLE_002`, retryable
 * (outside operation calls, a REST request, a `503` with that text);
 * within an operation call, only until the call ends (its deadline or its
 * cancellation, whose answer stands). A statement that found the database
 * locked did nothing, so running it again is what SQLite's own busy handler
 * does. Only for the `better-sqlite3` driver, whose every query goes
 * through its one query runner; others are left as they are.
 */
export function waitForLocksAsynchronously(dataSource: DataSource): void {
  if (dataSource.options.type !== 'better-sqlite3') {
    return;
  }
  const driver = dataSource.driver as unknown as BetterSqlite3Driver;
  const runner = driver.createQueryRunner('master');
  if (waiting.has(runner)) {
    return;
  }
  waiting.add(runner);
  const limitMs = driver.options.timeout ?? DEFAULT_BUSY_TIMEOUT_MS;
  driver.databaseConnection?.pragma('busy_timeout = 0');
  const query = runner.query.bind(runner) as (
    ...args: unknown[]
  ) => Promise<unknown>;
  runner.query = (async (...args: unknown[]) => {
    const started = performance.now();
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      try {
        return await query(...args);
      } catch (error) {
        if (!isDatabaseBusy(error) || callEnded()) {
          throw error;
        }
        const waited = performance.now() - started;
        if (waited >= limitMs) {
          throw stillLocked(limitMs);
        }
        await sleep(Math.min(pause, limitMs - waited));
        pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
      }
    }
  }) as QueryRunner['query'];
}

/**
 * The failure of a statement that waited `limitMs` for the lock in vain:
 * in an operation call, `INTERNAL_UNAVAILABLE_002`; elsewhere (a REST
 * request), a `503 Service Unavailable` whose message is that failure's
 * text, where Nest would answer any other error with `500`.
 */
function stillLocked(limitMs: number): Error {
  const exception = new OperationException('INTERNAL_UNAVAILABLE_002', {
    seconds: limitMs / 1000,
  });
  return callState() === undefined
    ? new ServiceUnavailableException(formatFailure(exception.failure))
    : exception;
}

/** The operation call of the current CLS context, if any. */
function callState(): CallState | undefined {
  const cls = ClsServiceManager.getClsService();
  return cls.isActive()
    ? cls.get<CallState | undefined>(CALL_STATE)
    : undefined;
}

/** Whether the operation call of the current CLS context, if any, has ended. */
function callEnded(): boolean {
  return callState()?.ended() ?? false;
}
