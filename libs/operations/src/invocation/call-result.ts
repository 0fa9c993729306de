import type { ExecutionContext } from '@nestjs/common';
import { getInvocationContext } from './get-invocation-context.js';
import { type SerializedResult, serializeResult } from './output-contract.js';

/** Per call request: the last result serialised, and what it became. */
const serialized = new WeakMap<
  object,
  { readonly value: unknown; readonly result: SerializedResult }
>();

/**
 * The result of the current operation call as its carrier will send it:
 * serialised under the operation's output contract, which throws when the
 * result breaks it (the call then fails with `INTERNAL_ERROR_001`). For an
 * interceptor that must see that failure before the call ends, e.g. a
 * transaction interceptor before it commits; the carrier then sends this
 * very result without serialising it again. Outside an operation call (a
 * REST route), `value` unchanged.
 *
 * @publicApi
 */
export function serializeCallResult(
  context: ExecutionContext,
  value: unknown,
): unknown {
  const invocation = getInvocationContext(context);
  if (!invocation) {
    return value;
  }
  const request = context.switchToHttp().getRequest<object>();
  return resultOf(request, invocation.operation, value).value;
}

/** `value` serialised for the call of `request`, once. */
export function resultOf(
  request: object,
  definition: Parameters<typeof serializeResult>[0],
  value: unknown,
): SerializedResult {
  const done = serialized.get(request);
  if (done && done.value === value) {
    return done.result;
  }
  const result = serializeResult(definition, value);
  serialized.set(request, { value, result });
  return result;
}
