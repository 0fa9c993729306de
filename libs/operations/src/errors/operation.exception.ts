import type { OperationErrorCode } from './error-codes';
import { OperationFailure, operationFailure } from './operation-failure';

/**
 * Thrown by application code (handlers, guards, interceptors) to fail an
 * operation with a specific catalogue code.
 *
 * ```ts
 * throw new OperationException('BUSINESS_CONFLICT_001', { detail: 'Order 7 is shipped.' });
 * ```
 *
 * @publicApi
 */
export class OperationException extends Error {
  readonly failure: OperationFailure;

  constructor(
    code: OperationErrorCode,
    params: Record<string, string | number> = {},
  ) {
    super(code);
    this.name = 'OperationException';
    this.failure = operationFailure(code, params);
  }
}
