import { isObservable, lastValueFrom } from 'rxjs';
import { answerFailure } from '../../errors/failure.mapper.js';
import {
  failureException,
  OperationException,
} from '../../errors/operation.exception.js';
import type { ExceptionFilters } from '../../nest/nest-context.adapter.js';
import { OperationArgumentsHost } from './operation-arguments-host.js';
import type { OperationRequest } from './operation-request.js';
import type { OperationResponse } from './operation-response.js';

/**
 * What the app's exception filters make of an exception thrown on a call's
 * way (guards, interceptors, pipes, method), as on its HTTP routes: what
 * the filter that catches it writes (status and body) is the failure it
 * returns, an exception it throws is returned for the usual mapping, and a
 * filter that writes nothing leaves the exception as it was.
 * `OperationException`s are the library's failures (a refused input, a
 * missing permission) and the app's own for tool calls; no filter sees them.
 */
export async function filteredException(
  error: unknown,
  filters: ExceptionFilters,
  request: OperationRequest,
  response: OperationResponse,
): Promise<unknown> {
  if (error instanceof OperationException) {
    return error;
  }
  try {
    const result = filters(
      error,
      new OperationArgumentsHost([request, response]),
    );
    await (isObservable(result)
      ? lastValueFrom(result, { defaultValue: undefined })
      : result);
  } catch (thrown) {
    return thrown;
  }
  const written = response.written;
  if (!written) {
    return error;
  }
  const failure = answerFailure(
    { status: response.statusCode, body: bodyOf(written.body) },
    response,
  );
  // A 5xx answer with nothing of the app's own is an unexpected failure:
  // the exception is logged, and the caller gets INTERNAL_ERROR_001.
  return failure ? failureException(failure) : error;
}

/** A body written as JSON text, parsed; any other body as written. */
function bodyOf(body: unknown): unknown {
  if (typeof body === 'string' && body.trimStart().startsWith('{')) {
    try {
      return JSON.parse(body) as unknown;
    } catch {
      return body;
    }
  }
  return body;
}
