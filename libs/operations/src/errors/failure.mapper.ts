import { HttpException, HttpStatus } from '@nestjs/common';
import type { OperationErrorCode } from './error-codes.js';
import { OperationException } from './operation.exception.js';
import { OperationFailure, operationFailure } from './operation-failure.js';

const BY_STATUS: ReadonlyMap<number, OperationErrorCode> = new Map([
  [HttpStatus.BAD_REQUEST, 'VALIDATION_INVALID_001'],
  [HttpStatus.UNPROCESSABLE_ENTITY, 'VALIDATION_INVALID_001'],
  [HttpStatus.UNAUTHORIZED, 'SECURITY_DENIED_003'],
  [HttpStatus.FORBIDDEN, 'SECURITY_DENIED_001'],
  [HttpStatus.NOT_FOUND, 'BUSINESS_NOTFOUND_001'],
  [HttpStatus.CONFLICT, 'BUSINESS_CONFLICT_001'],
]);

/**
 * Maps what an operation threw onto the catalogue, or returns undefined for
 * an unexpected error (the caller logs it and answers `INTERNAL_ERROR_001`).
 */
export function toOperationFailure(
  error: unknown,
): OperationFailure | undefined {
  if (error instanceof OperationException) {
    return error.failure;
  }
  if (!(error instanceof HttpException)) {
    return undefined;
  }
  const status = error.getStatus();
  if (status < 400 || status >= 500) {
    return undefined;
  }
  const code = BY_STATUS.get(status) ?? 'BUSINESS_REJECTED_001';
  return operationFailure(code, { detail: describe(error) });
}

function describe(error: HttpException): string {
  const response = error.getResponse();
  const message =
    typeof response === 'object' && response !== null && 'message' in response
      ? (response as { message: unknown }).message
      : response;
  if (Array.isArray(message)) {
    return message.map(String).join('; ');
  }
  return typeof message === 'string' ? message : error.message;
}
