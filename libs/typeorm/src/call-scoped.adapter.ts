import {
  TransactionalAdapterTypeOrm,
  type TypeOrmTransactionalAdapterOptions,
} from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsServiceManager } from 'nestjs-cls';
import type { EntityManager } from 'typeorm';

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
 * Everywhere else (REST requests, code outside any call, a call still
 * running) it is the adapter as it is.
 */
export class CallScopedTypeOrmAdapter extends TransactionalAdapterTypeOrm {
  constructor(options: TypeOrmTransactionalAdapterOptions) {
    super(options);
    const adapterOptions = this.optionsFactory;
    this.optionsFactory = (dataSource) => {
      const options = adapterOptions(dataSource);
      return {
        ...options,
        wrapWithTransaction: (txOptions, fn, setClient) =>
          options.wrapWithTransaction(
            txOptions,
            fn,
            guardedClient(setClient, liveCall()),
          ),
        wrapWithNestedTransaction: (txOptions, fn, setClient, client) =>
          options.wrapWithNestedTransaction(
            txOptions,
            fn,
            guardedClient(setClient, liveCall()),
            client,
          ),
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

/** `setClient` that, in a call, hands out the manager refusing work once the call has ended. */
function guardedClient(
  setClient: (client?: EntityManager) => void,
  call: CallState | undefined,
): (client?: EntityManager) => void {
  if (!call) {
    return setClient;
  }
  return (client) =>
    setClient(
      client &&
        new Proxy(client, {
          get(target, key, receiver) {
            if (call.ended()) {
              throw new CallEndedError(call.operationId);
            }
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
    );
}
