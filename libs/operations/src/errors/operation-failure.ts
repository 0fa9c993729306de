import { OPERATION_ERRORS, OperationErrorCode } from './error-codes';

/**
 * Why an operation failed, as a value: a catalogue code, the message key and
 * its parameters. Carriers render it (`<CODE>: <message>`).
 *
 * @publicApi
 */
export interface OperationFailure {
  readonly code: OperationErrorCode;
  /** Message-catalogue key, `errors.<CODE>`. */
  readonly key: string;
  readonly params: Readonly<Record<string, string | number>>;
}

/** @publicApi */
export function operationFailure(
  code: OperationErrorCode,
  params: Record<string, string | number> = {},
): OperationFailure {
  return Object.freeze({
    code,
    key: `errors.${code}`,
    params: Object.freeze({ ...params }),
  });
}

/** The English text of a failure, `<CODE>: <message>`. */
export function formatFailure(failure: OperationFailure): string {
  const text = OPERATION_ERRORS[failure.code].replace(
    /\{(\w+)\}/g,
    (whole, name: string) =>
      Object.hasOwn(failure.params, name)
        ? String(failure.params[name])
        : whole,
  );
  return `${failure.code}: ${text}`;
}
