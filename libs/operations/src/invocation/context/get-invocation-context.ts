import type { ExecutionContext } from '@nestjs/common';
import type { InvocationContext } from '../../interfaces/operation-contract.js';
import { invocationOf } from '../pipeline/operation-request.js';
import { currentCallRequest } from './current-call.js';

/**
 * The invocation context of an operation call: from a guard's or
 * interceptor's `ExecutionContext`, from the per-call request
 * (`@Inject(REQUEST)`), or, without an argument, of the call the current
 * code runs for, so that the services a handler calls reach it without a
 * parameter:
 *
 * ```ts
 * async importAll(rows: Row[]) {
 *   for (const [done, row] of rows.entries()) {
 *     await this.save(row);
 *     getInvocationContext()?.reportProgress(done + 1, rows.length);
 *   }
 * }
 * ```
 *
 * Without an argument it needs the app to use nestjs-cls (`ClsModule`,
 * which `@nestops/typeorm` needs anyway): each call then runs in a CLS
 * context of its own, and the library keeps the call there. In an app
 * without it, it is undefined (and the first such lookup says so on the
 * app's log), so that no call pays for async context nothing asks for.
 *
 * Undefined outside an operation call, e.g. on an ordinary HTTP route.
 *
 * @publicApi
 */
export function getInvocationContext(
  source?: ExecutionContext | object,
): InvocationContext | undefined {
  if (source === undefined) {
    return invocationOf(currentCallRequest());
  }
  const request =
    'switchToHttp' in source && typeof source.switchToHttp === 'function'
      ? (source as ExecutionContext).switchToHttp().getRequest<unknown>()
      : source;
  return invocationOf(request);
}

/**
 * Whether an `ExecutionContext` is that of an operation call (a tool call,
 * a command line `invoke`) rather than an HTTP route: lets an interceptor
 * that reshapes HTTP responses (a `{ data }` wrapper) leave calls alone,
 * whose results must keep their operation's output contract.
 *
 * ```ts
 * intercept(context: ExecutionContext, next: CallHandler) {
 *   if (isOperationCall(context)) return next.handle();
 *   return next.handle().pipe(map((data) => ({ data })));
 * }
 * ```
 *
 * @publicApi
 */
export function isOperationCall(context: ExecutionContext): boolean {
  return getInvocationContext(context) !== undefined;
}
