import type { Logger } from '@nestjs/common';
import { toOperationFailure } from '../../errors/failure.mapper.js';
import {
  type OperationFailure,
  operationFailure,
} from '../../errors/operation-failure.js';
import { ReshapedResultError } from '../output/reshaped-result.js';
import type { OperationResponse } from '../pipeline/operation-response.js';
import type { CallFailure } from './call-outcome.js';
import type { CallPlan } from './call-plan.js';

/**
 * The failure a call that threw `error` answers with: the app's or the
 * library's failure it maps to; `INTERNAL_CONTRACT_001` for a result
 * reshaped against its output contract, `INTERNAL_TIMEOUT_001` for one given
 * up at its deadline; else `INTERNAL_ERROR_001`, its cause logged under the
 * call's correlation id.
 */
export function failureOf(
  error: unknown,
  response: OperationResponse,
  operationId: string,
  call: CallPlan,
  logger: Pick<Logger, 'error'>,
): CallFailure {
  const failure = toOperationFailure(error, response);
  if (failure) {
    return fail(failure);
  }
  if (error instanceof ReshapedResultError) {
    logger.error(
      `Operation ${operationId} failed (correlation id ${call.correlationId}): ${error.message}`,
    );
    return fail(
      operationFailure('INTERNAL_CONTRACT_001', {
        operation: operationId,
        correlationId: call.correlationId,
      }),
    );
  }
  if (call.abort.isReason(error)) {
    // Given up at its deadline, and answered so already.
    return fail(
      operationFailure('INTERNAL_TIMEOUT_001', {
        seconds: (call.timeout ?? 0) / 1000,
      }),
    );
  }
  logger.error(
    `Operation ${operationId} failed unexpectedly (correlation id ${call.correlationId})`,
    error instanceof Error ? error.stack : String(error),
  );
  return fail(
    operationFailure('INTERNAL_ERROR_001', {
      correlationId: call.correlationId,
    }),
  );
}

function fail(failure: OperationFailure): CallFailure {
  return { ok: false, failure };
}
