import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { forbiddenMessage } from '../nest/nest-core.adapter.js';
import {
  OPERATION_ERRORS,
  type OperationErrorCode,
  type OperationFailureCode,
} from './error-codes.js';
import { OperationException } from './operation.exception.js';
import {
  failureKey,
  OperationFailure,
  operationFailure,
} from './operation-failure.js';

const BY_STATUS: ReadonlyMap<number, OperationErrorCode> = new Map([
  [HttpStatus.BAD_REQUEST, 'VALIDATION_INVALID_001'],
  [HttpStatus.UNPROCESSABLE_ENTITY, 'VALIDATION_INVALID_001'],
  [HttpStatus.UNAUTHORIZED, 'SECURITY_DENIED_003'],
  [HttpStatus.FORBIDDEN, 'SECURITY_DENIED_001'],
  [HttpStatus.NOT_FOUND, 'BUSINESS_NOTFOUND_001'],
  [HttpStatus.CONFLICT, 'BUSINESS_CONFLICT_001'],
  [HttpStatus.TOO_MANY_REQUESTS, 'SECURITY_THROTTLED_001'],
  [HttpStatus.SERVICE_UNAVAILABLE, 'INTERNAL_UNAVAILABLE_001'],
]);

/** `<AREA>_<KIND>_<NNN>`, as an answer's `code` (or Nest's `errorCode`) may name one. */
const CODE_FORM = /^[A-Z][A-Z0-9]*_[A-Z][A-Z0-9]*_[0-9]{3}$/;

/** The response headers a failure reads: the retry hint of a 429. */
export interface FailureHeaders {
  getHeader(name: string): unknown;
  getHeaderNames(): readonly string[];
}

/** An HTTP answer: what an `HttpException` says, or what an exception filter wrote. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Maps what an operation threw onto the catalogue, or returns undefined for
 * an unexpected error (the caller logs it and answers `INTERNAL_ERROR_001`).
 * `headers` are the call's response headers (a 429's `Retry-After`).
 */
export function toOperationFailure(
  error: unknown,
  headers?: FailureHeaders,
): OperationFailure | undefined {
  if (error instanceof OperationException) {
    return error.failure;
  }
  if (!(error instanceof HttpException)) {
    return undefined;
  }
  const body = error.getResponse();
  return answerFailure(
    {
      status: error.getStatus(),
      // An Error as the response is not for the client (Nest sends the
      // status's text instead).
      body: body instanceof Error ? undefined : body,
    },
    headers,
  );
}

/**
 * The failure an HTTP answer stands for: its status through the error
 * table, its body's `code` (or `errorCode`) when of the form
 * `<AREA>_<KIND>_<NNN>`, and its body's `message` (or the body, a string)
 * as the text where it is the app's own: in the code's `{detail}`, or the
 * whole text for a code whose text has none. A default text (the status's
 * own, as Nest's exceptions and filters write it) keeps the library's
 * translated text. Undefined for a status below 400, and for a 5xx other
 * than 503 with no message of the app's own: an unexpected failure.
 */
export function answerFailure(
  answer: HttpAnswer,
  headers?: FailureHeaders,
): OperationFailure | undefined {
  const { status } = answer;
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    return undefined;
  }
  const ownCode = codeOf(answer.body);
  const message = ownMessage(answer, ownCode ?? BY_STATUS.get(status));
  const mapped =
    BY_STATUS.get(status) ??
    (status < 500
      ? 'BUSINESS_REJECTED_001'
      : message !== undefined || ownCode !== undefined
        ? 'INTERNAL_ERROR_002'
        : undefined);
  if (mapped === undefined) {
    return undefined;
  }
  const code = ownCode ?? mapped;
  const params: Record<string, string | number> = {
    detail: message ?? describe(answer),
  };
  if (status === HttpStatus.TOO_MANY_REQUESTS) {
    params.retryAfter = headers ? retryAfterOf(headers) : 1;
  }
  const text = textOf(code);
  return operationFailure(
    code,
    params,
    failureKey(text === undefined ? mapped : code),
    // The app's own message is the text where the code's text cannot hold
    // it, and any text is where the code's text needs what is not known.
    text !== undefined && !fills(text, params)
      ? (message ?? describe(answer))
      : message !== undefined && !text?.includes('{detail}')
        ? message
        : undefined,
  );
}

/** Whether `params` fill every `{placeholder}` of `text`. */
function fills(
  text: string,
  params: Readonly<Record<string, unknown>>,
): boolean {
  return [...text.matchAll(/\{(\w+)\}/g)].every(([, name]) =>
    Object.hasOwn(params, name),
  );
}

function textOf(code: string): string | undefined {
  return Object.hasOwn(OPERATION_ERRORS, code)
    ? OPERATION_ERRORS[code as OperationErrorCode]
    : undefined;
}

function codeOf(body: unknown): OperationFailureCode | undefined {
  if (typeof body !== 'object' || body === null) {
    return undefined;
  }
  const { code, errorCode } = body as { code?: unknown; errorCode?: unknown };
  for (const candidate of [code, errorCode]) {
    if (typeof candidate === 'string' && CODE_FORM.test(candidate)) {
      return candidate as OperationFailureCode;
    }
  }
  return undefined;
}

/** The answer's message as text: a list joined with `; `. */
function messageOf(body: unknown): string | undefined {
  const message =
    typeof body === 'object' && body !== null && 'message' in body
      ? (body as { message: unknown }).message
      : body;
  if (Array.isArray(message)) {
    return message.map(String).join('; ');
  }
  return typeof message === 'string' || typeof message === 'number'
    ? String(message)
    : undefined;
}

/**
 * The app's own message, or undefined where there is none or it is a
 * default text: the status's text (`Unauthorized`, `Internal server
 * error`), Nest's `Forbidden resource` of a guard that returned false, the library's
 * English text of the code (`Authentication is required.`, which stays
 * translated), and any of them after a class name (`ThrottlerException:
 * Too Many Requests`).
 */
function ownMessage(
  answer: HttpAnswer,
  code: string | undefined,
): string | undefined {
  const message = messageOf(answer.body)?.trim();
  if (!message) {
    return undefined;
  }
  const text = message.toLowerCase().replace(NAME_PREFIX, '');
  return [
    STATUS_CODES[answer.status],
    forbiddenMessage(),
    code === undefined ? undefined : textOf(code),
  ].some((standard) => standard?.toLowerCase() === text)
    ? undefined
    : message;
}

/** `ThrottlerException: ` of a default text. */
const NAME_PREFIX = /^[a-z_$][\w$]*: /;

/** The answer's text for a `{detail}`: its message, else the status's text. */
function describe(answer: HttpAnswer): string {
  return (
    messageOf(answer.body) ??
    STATUS_CODES[answer.status] ??
    `HTTP ${answer.status}`
  );
}

/**
 * Seconds until a retry, from `Retry-After` (seconds or an HTTP date), or
 * the longest `Retry-After-<name>` (what ThrottlerGuard sets for a named
 * throttler); 1 where the answer gives none.
 */
function retryAfterOf(headers: FailureHeaders): number {
  const names = headers
    .getHeaderNames()
    .filter(
      (name) =>
        name.toLowerCase() === 'retry-after' ||
        name.toLowerCase().startsWith('retry-after-'),
    );
  const seconds = names
    .map((name) => secondsOf(headers.getHeader(name)))
    .filter((value): value is number => value !== undefined);
  return seconds.length > 0 ? Math.max(...seconds) : 1;
}

function secondsOf(value: unknown): number | undefined {
  const text = Array.isArray(value) ? String(value[0]) : String(value);
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) {
    return Math.ceil(Number(text));
  }
  const date = Date.parse(text);
  return Number.isNaN(date)
    ? undefined
    : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
