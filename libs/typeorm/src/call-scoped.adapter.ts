import {
  TransactionalAdapterTypeOrm,
  type TypeOrmTransactionalAdapterOptions,
} from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsServiceManager } from 'nestjs-cls';
import type { EntityManager, QueryRunner } from 'typeorm';

/** The CLS key of the operation call a CLS context belongs to. */
export const CALL_STATE = Symbol('nestops:unit-of-work-call');

/** What the unit of work knows of the operation call its CLS context runs. */
export interface CallState {
  /** The operation's id, for the refusal's message. */
  readonly operationId: string;
  /** Whether the call has ended: answered, timed out or cancelled. */
  ended(): boolean;
}

/**
 * The error a call's transactional data access throws once the call has
 * ended: a handler that goes on after its call timed out or was cancelled
 * (or work it left running after its answer) would otherwise write with the
 * data source's own manager, outside any transaction, and commit on its own.
 *
 * @publicApi
 */
export class CallEndedError extends Error {
  constructor(operationId: string) {
    super(
      `The call of ${operationId} has ended (answered, timed out or cancelled): its data access through TransactionHost refuses further work.`,
    );
    this.name = 'CallEndedError';
  }
}

/**
 * `@nestjs-cls/transactional`'s TypeORM adapter, but in the CLS context of
 * an operation call that has ended, `TransactionHost#tx` (the call's
 * transaction manager, or the data source's when it has none),
 * `withTransaction()` and `@Transactional()` throw `CallEndedError`. The
 * transaction manager is refused too, not only the fallback: between a
 * call's deadline and the end of its rollback a handler still holds it,
 * and a write through it then would run after the ROLLBACK, on its own.
 * A call's transaction ends with its handler's work: a nested transaction
 * (`Propagation.Nested`, a savepoint) still open then (the call failed or
 * timed out inside it) is rolled back first, so that the call's rollback is
 * that of the whole transaction, and its late commit or rollback is refused
 * (the savepoint shares the connection: a late commit would end the
 * transaction of whatever runs on it next). A handler awaits its nested
 * transactions; one left running after the handler returns is not part of
 * the call's work. Everywhere else (REST requests, code outside any call) it is
 * the adapter as it is.
 */
export class CallScopedTypeOrmAdapter extends TransactionalAdapterTypeOrm {
  constructor(options: TypeOrmTransactionalAdapterOptions) {
    super(options);
    const adapterOptions = this.optionsFactory;
    this.optionsFactory = (dataSource) => {
      const options = adapterOptions(dataSource);
      return {
        ...options,
        wrapWithTransaction: (txOptions, fn, setClient) => {
          const call = liveCall();
          if (!call) {
            return options.wrapWithTransaction(txOptions, fn, setClient);
          }
          let runner: QueryRunner | undefined;
          const guarded = guardedClient(setClient, call);
          return options.wrapWithTransaction(
            txOptions,
            async () => {
              try {
                return await fn();
              } finally {
                await rollBackNested(runner);
              }
            },
            (client) => {
              runner = client?.queryRunner;
              guarded(client);
            },
          );
        },
        wrapWithNestedTransaction: (txOptions, fn, setClient, client) => {
          const call = liveCall();
          return options.wrapWithNestedTransaction(
            txOptions,
            fn,
            guardedClient(setClient, call),
            call ? nestingClient(client, call) : client,
          );
        },
        getFallbackInstance: (): EntityManager => {
          liveCall();
          return options.getFallbackInstance();
        },
      };
    };
  }
}

/**
 * The call of the current CLS context, if any; throws `CallEndedError`
 * when it has ended.
 */
function liveCall(): CallState | undefined {
  const cls = ClsServiceManager.getClsService();
  const call = cls.isActive()
    ? cls.get<CallState | undefined>(CALL_STATE)
    : undefined;
  if (call?.ended()) {
    throw new CallEndedError(call.operationId);
  }
  return call;
}

/**
 * Rolls back the savepoints of the nested transactions still open on
 * `runner`. Their depth is TypeORM's own count (`transactionDepth` of
 * every query runner, protected in its types): 1 is the call's transaction.
 */
async function rollBackNested(runner: QueryRunner | undefined): Promise<void> {
  const depthOf = (open: QueryRunner) =>
    (open as unknown as { transactionDepth: number }).transactionDepth;
  while (runner?.isTransactionActive && depthOf(runner) > 1) {
    await runner.rollbackTransaction();
  }
}

/** `target`, but refusing every property once `call` has ended. */
function refusing<T extends object>(
  target: T,
  call: CallState,
  get: (key: string | symbol, value: unknown) => unknown = (_, value) => value,
): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (call.ended()) {
        throw new CallEndedError(call.operationId);
      }
      return get(key, Reflect.get(object, key, receiver) as unknown);
    },
  });
}

/** `setClient` that, in a call, hands out the manager refusing work once the call has ended. */
function guardedClient(
  setClient: (client?: EntityManager) => void,
  call: CallState | undefined,
): (client?: EntityManager) => void {
  if (!call) {
    return setClient;
  }
  return (client) => setClient(client && refusing(client, call));
}

/**
 * The manager a nested transaction begins on: its query runner (which
 * TypeORM keeps for the savepoint's commit or rollback) refuses work once
 * the call has ended.
 */
function nestingClient(client: EntityManager, call: CallState): EntityManager {
  return refusing(client, call, (key, value) =>
    key === 'queryRunner' ? refusing(value as QueryRunner, call) : value,
  );
}
