import type { OPERATION_ERRORS, OperationFailureCode } from './error-codes.js';

/**
 * One failing field of a `VALIDATION_INVALID_001` failure, kept apart so
 * that its text can be translated: the constraint's message key is
 * `nestops.validation.<constraint>`, with `property` and `params` as its
 * arguments.
 *
 * @publicApi
 */
export interface OperationViolation {
  /** The failing field's path (`customer.name`, `items.0`), `input` for the input as a whole. */
  readonly property: string;
  /** class-validator's constraint name (`isInt`, `whitelistValidation`) or the library's (`maxStringLength`). */
  readonly constraint: string;
  /** The text's arguments besides `property` (`constraint1`, `limit`, ...). */
  readonly params: Readonly<Record<string, string | number>>;
  /** The English message: used when no translation exists. */
  readonly message: string;
  /** True when `message` is the application's own (a decorator's `message` option): it is used as written. */
  readonly custom?: boolean;
}

/**
 * Why an operation failed, as a value: a catalogue code, the message key and
 * its parameters (and, for validation, each failing field). Carriers render
 * it in the caller's language (`<CODE>: <message>`) with `OperationMessages`.
 *
 * @publicApi
 */
export interface OperationFailure {
  /**
   * The catalogue code, or the app's own of the same form
   * `<AREA>_<KIND>_<NNN>` (an exception filter's answer or an
   * `HttpException`'s body may name one in its `code`); it never depends on
   * the language.
   */
  readonly code:
    | keyof typeof OPERATION_ERRORS
    | `${Uppercase<string>}_${Uppercase<string>}_${number}`;
  /** Message-catalogue key: `nestops.errors.<CODE>`, or the application's own key. */
  readonly key: string;
  /** The arguments of the message (`{detail}`, `{permission}`...). */
  readonly params: Readonly<Record<string, string | number>>;
  /** The failing fields of a validation failure. */
  readonly violations?: readonly OperationViolation[];
  /**
   * The application's own text, shown as written in every language: an
   * `HttpException`'s message or an exception filter's answer, where the
   * code's text has no `{detail}` to hold it (`SECURITY_DENIED_003: Token
   * expired`).
   */
  readonly message?: string;
}

/** The library's message key of a failure code. */
export function failureKey(code: OperationFailureCode): string {
  return `nestops.errors.${code}`;
}

/** @publicApi */
export function operationFailure(
  code: OperationFailureCode,
  params: Record<string, string | number> = {},
  key: string = failureKey(code),
  message?: string,
): OperationFailure {
  return Object.freeze({
    code,
    key,
    params: Object.freeze({ ...params }),
    ...(message !== undefined ? { message } : {}),
  });
}
