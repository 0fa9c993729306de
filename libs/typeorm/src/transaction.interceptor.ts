import type {
  CallHandler,
  ExecutionContext,
  NestInterceptor,
} from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { TransactionHost } from '@nestjs-cls/transactional';
import type {
  TransactionalAdapterTypeOrm,
  TypeOrmTransactionOptions,
} from '@nestjs-cls/transactional-adapter-typeorm';
import {
  getInvocationContext,
  type InvocationContext,
} from '@nestops/operations';
import {
  type TransactionSetting,
  unitOfWorkOf,
} from '@nestops/operations/internal';
import type { ClsService } from 'nestjs-cls';
import { defer, lastValueFrom, Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { type CallQueue, callQueueOf } from './call-queue.js';
import { CALL_STATE, type CallState } from './call-scoped.adapter.js';
import { waitForLocksAsynchronously } from './sqlite-lock-wait.js';
import { recordCommitted } from './committed-results.js';
import { UNIT_OF_WORK_METADATA } from './unit-of-work.decorator.js';

/** HTTP methods that read only: no transaction unless `@UnitOfWork()` asks. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The unit of work of each call: one TypeORM transaction on the data source,
 * committed when the call succeeds and rolled back when it fails in any way
 * (an exception from the handler or any interceptor or filter of the app,
 * which carriers answer with `isError`; a result that breaks the
 * operation's output contract; the call's timeout or abort). A call's
 * transaction commits only once its result is final: interceptors of the
 * app that run outside this one (a response wrapper registered before it)
 * see the result first, with the transaction still open
 * (`unitOfWorkOf(context).holdCommit`, `@nestops/operations/internal`).
 *
 * Every call runs in a CLS context of its own (the invoker gives each call
 * one, never the outer HTTP request's), and the transaction is kept in a
 * copy of it made here (what the context holds, `CLS_ID` and `CLS_REQ`
 * included, stays visible to the handler), so `TransactionHost#tx` is the
 * call's transaction, or the data source's manager when the call has
 * none; a REST request's transaction likewise lives in a copy of its own
 * context. On a data source
 * with a single connection (SQLite), calls run one at a time, and on
 * better-sqlite3 a database locked by another connection is waited for
 * without holding the event loop (`waitForLocksAsynchronously`).
 *
 * `UnitOfWorkModule.forRoot()` registers it as a global interceptor. A
 * REST request's transaction ends where this interceptor returns: keep it
 * before the app's other global interceptors so theirs run inside it.
 *
 * @publicApi
 */
export class TransactionInterceptor implements NestInterceptor {
  private readonly queue?: CallQueue;

  constructor(
    private readonly reflector: Reflector,
    private readonly cls: ClsService,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    dataSource: DataSource,
  ) {
    this.queue = callQueueOf(dataSource);
    waitForLocksAsynchronously(dataSource);
  }

  /** Runs the call or request in its transaction, or as it is when it has none. */
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const invocation = getInvocationContext(context);
    const setting = this.settingOf(context, invocation);
    const handle = () =>
      lastValueFrom(next.handle(), { defaultValue: undefined });
    if (!invocation) {
      const work =
        setting === false
          ? handle
          : () => this.txHost.withTransaction(optionsOf(setting), handle);
      return defer(() =>
        this.cls.run({ ifNested: 'inherit' }, () => this.queued(work)),
      );
    }
    if (setting === false) {
      return defer(() => this.inCall(invocation, handle));
    }
    const unitOfWork = unitOfWorkOf(invocation);
    return new Observable((subscriber) => {
      const ended = settlement();
      let sent = false;
      // The result goes on to the app's outer interceptors with the
      // transaction still open; it commits once the call's result is final.
      const work = () => {
        // Given up before its turn (its deadline passed in the app's guards): never begun.
        invocation.signal.throwIfAborted();
        return this.txHost.withTransaction(optionsOf(setting), async () => {
          const value = await untilAborted(handle, invocation.signal);
          const accepted = unitOfWork.holdCommit(ended.promise);
          sent = true;
          subscriber.next(value);
          subscriber.complete();
          if (!(await untilAborted(() => accepted, invocation.signal))) {
            throw ROLLED_BACK;
          }
          // From here on the answer is what the commit does; a call
          // given up before it is rolled back.
          if (!unitOfWork.beginCommit()) {
            throw invocation.signal.reason;
          }
          // A task's result commits with its writes: a later run finds it.
          const key = unitOfWork.taskId;
          if (key !== undefined) {
            const json = unitOfWork.finalJson() ?? 'null';
            await recordCommitted(this.txHost.tx, key, json);
          }
        });
      };
      this.inCall(invocation, work).then(ended.resolve, (error: unknown) => {
        if (!sent) {
          subscriber.error(error);
        } else if (error === ROLLED_BACK) {
          ended.resolve();
        } else {
          ended.reject(error);
        }
      });
    });
  }

  /** `work` in the call's CLS context, after the calls before it on a single connection. */
  private inCall<T>(
    invocation: InvocationContext,
    work: () => Promise<T>,
  ): Promise<T> {
    return this.cls.run({ ifNested: 'inherit' }, () =>
      this.runCall(invocation, () => this.queued(work, invocation)),
    );
  }

  /** `work`, one at a time on a data source with a single connection. */
  private queued<T>(
    work: () => Promise<T>,
    invocation?: InvocationContext,
  ): Promise<T> {
    return this.queue ? this.queue.run(work, invocation?.signal) : work();
  }

  /**
   * Runs a call's work in its CLS context, marked so that its transactional
   * data access refuses further work once the call has ended.
   */
  private async runCall<T>(
    invocation: InvocationContext,
    run: () => Promise<T>,
  ): Promise<T> {
    let over = false;
    // Read when first asked (reading it makes it), then kept: the call's
    // data access asks on every property of its manager.
    let signal: AbortSignal | undefined;
    this.cls.set<CallState>(CALL_STATE, {
      operationId: invocation.operation.id,
      ended: () => over || (signal ??= invocation.signal).aborted,
    });
    try {
      return await run();
    } finally {
      over = true;
    }
  }

  /** The operation's setting; else `@UnitOfWork()`; else by HTTP method. */
  private settingOf(
    context: ExecutionContext,
    invocation: InvocationContext | undefined,
  ): TransactionSetting {
    if (invocation) {
      return invocation.operation.transaction;
    }
    const marked = this.reflector.getAllAndOverride<
      boolean | TransactionSetting | undefined
    >(UNIT_OF_WORK_METADATA, [context.getHandler(), context.getClass()]);
    if (marked !== undefined) {
      return marked === true ? {} : marked;
    }
    if (context.getType() !== 'http') {
      return false;
    }
    const method = context
      .switchToHttp()
      .getRequest<{ method?: string }>().method;
    return SAFE_METHODS.has(String(method).toUpperCase()) ? false : {};
  }
}

/** What a call's transaction throws to roll back a result the call did not keep. */
const ROLLED_BACK = Symbol('nestops:rolled-back');

/** The transaction options of a setting; without an isolation level: the database's default. */
function optionsOf(
  setting: Exclude<TransactionSetting, false>,
): TypeOrmTransactionOptions {
  return { isolationLevel: setting.isolation } as TypeOrmTransactionOptions;
}

/** A promise and its two settling functions. */
function settlement(): {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
} {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/**
 * `work` started, or a rejection with the signal's reason as soon as it
 * aborts. A call whose signal is already aborted (its deadline passed while
 * the app's guards held it, say) never starts: its handler would otherwise
 * run once the transaction is rolled back, and write outside it.
 */
function untilAborted<T>(
  work: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (!signal) {
    return work();
  }
  if (signal.aborted) {
    return Promise.reject(signal.reason as Error);
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work(), aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort as () => void),
  );
}
