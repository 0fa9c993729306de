import { OutputContractError } from './output-contract.error.js';
import type { CallSerializer } from './call-serializer.js';

const RETURNED = Symbol('operations:returned');

type Marked = { [RETURNED]?: unknown };

/** Keeps what the operation's method returned on the call's request, and returns it. */
export function markReturned<T>(request: object, value: T): T {
  (request as Marked)[RETURNED] = value;
  return value;
}

/**
 * A result that breaks its output contract only because an interceptor of
 * the app changed it on its way out (a response wrapper's `{ data }`):
 * what the method returned keeps the contract.
 */
export class ReshapedResultError extends Error {
  override readonly name = 'ReshapedResultError';

  constructor(contract: OutputContractError) {
    super(
      `${contract.message} The method's own result matches it: an interceptor of the app changed the result. To leave tool calls alone, begin its intercept() with: if (isOperationCall(context)) return next.handle(); (isOperationCall from @nestops/operations).`,
    );
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * `value` serialised by `serializer`; where it breaks the output contract
 * and is not what the method returned, which keeps it, a
 * `ReshapedResultError` says so.
 */
export function serializeOrTellReshaped(
  serializer: CallSerializer,
  value: unknown,
  request: object,
): ReturnType<CallSerializer['serialize']> {
  try {
    return serializer.serialize(value);
  } catch (error) {
    const returned = (request as Marked)[RETURNED];
    if (
      error instanceof OutputContractError &&
      RETURNED in request &&
      returned !== value &&
      keeps(serializer, returned)
    ) {
      throw new ReshapedResultError(error);
    }
    throw error;
  }
}

function keeps(serializer: CallSerializer, value: unknown): boolean {
  try {
    serializer.serialize(value);
    return true;
  } catch {
    return false;
  }
}
