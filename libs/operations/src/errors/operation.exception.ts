import type { OPERATION_ERRORS } from './error-codes.js';
import { validationFailure } from './failure-text.js';
import {
  OperationFailure,
  OperationViolation,
  operationFailure,
} from './operation-failure.js';

/**
 * Thrown by application code (handlers, guards, interceptors) to fail an
 * operation with a specific catalogue code.
 *
 * ```ts
 * throw new OperationException('BUSINESS_CONFLICT_001', { detail: 'Order 7 is shipped.' });
 * throw new OperationException('BUSINESS_NOTFOUND_001',
 *   { id: 7, detail: 'Order 7 does not exist.' }, { key: 'orders.errors.not_found' });
 * ```
 *
 * @publicApi
 */
export class OperationException extends Error {
  /** The failure the call ends with, as carriers render it. */
  readonly failure: OperationFailure;

  constructor(
    code: keyof typeof OPERATION_ERRORS,
    params: Record<string, string | number> = {},
    /**
     * `key`: the application's message key for the text
     * (`orders.errors.not_found`), translated with `params` as its
     * arguments. Without it, or where the catalogue has no such key, the
     * library's text of `code` is used, so also give the `detail` parameter
     * that text shows.
     */
    options: { readonly key?: string } = {},
  ) {
    super(code);
    this.name = 'OperationException';
    this.failure = operationFailure(code, params, options.key);
  }

  /** A `VALIDATION_INVALID_001` failure naming each failing field. */
  static invalid(
    violations: readonly OperationViolation[],
  ): OperationException {
    return failureException(validationFailure(violations));
  }
}

/** An `OperationException` that ends the call with `failure`, as it is. */
export function failureException(
  failure: OperationFailure,
): OperationException {
  const exception = new OperationException('VALIDATION_INVALID_001');
  (exception as { failure: OperationFailure }).failure = failure;
  exception.message = failure.code;
  return exception;
}
