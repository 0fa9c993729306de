import {
  failureKey,
  type OperationFailure,
  type OperationViolation,
} from './operation-failure.js';
import {
  interpolate,
  LIBRARY_LANGUAGE,
  libraryText,
  MESSAGE_NAMESPACE,
} from '../i18n/library-messages.js';

/** A key's text with its arguments filled in, or undefined when there is none. */
export type MessageLookup = (
  key: string,
  args: Readonly<Record<string, string | number>>,
) => string | undefined;

/** The library's English texts, without any application catalogue. */
const libraryEnglish: MessageLookup = (key, args) => {
  const text = libraryText(key, LIBRARY_LANGUAGE);
  return text === undefined ? undefined : interpolate(text, args);
};

/**
 * `<CODE>: <message>`: the failure's key (the application's, else the
 * library's text of the code), and for a validation failure each failing
 * field's constraint text, falling back to class-validator's message.
 */
export function describeFailure(
  failure: OperationFailure,
  lookup: MessageLookup = libraryEnglish,
): string {
  const params = failure.violations
    ? { ...failure.params, detail: violationsText(failure.violations, lookup) }
    : failure.params;
  const codeKey = `${MESSAGE_NAMESPACE}.errors.${failure.code}`;
  const message =
    failure.message ??
    lookup(failure.key, params) ??
    (failure.key === codeKey ? undefined : lookup(codeKey, params)) ??
    libraryEnglish(codeKey, params);
  return `${failure.code}: ${message}`;
}

/** Each failing field's text, joined with `; `. */
export function violationsText(
  violations: readonly OperationViolation[],
  lookup: MessageLookup = libraryEnglish,
): string {
  return violations
    .map((violation) => violationText(violation, lookup))
    .join('; ');
}

function violationText(
  violation: OperationViolation,
  lookup: MessageLookup,
): string {
  if (violation.custom) {
    return violation.message;
  }
  return (
    lookup(`${MESSAGE_NAMESPACE}.validation.${violation.constraint}`, {
      ...violation.params,
      property: violation.property,
    }) ?? violation.message
  );
}

/**
 * A `VALIDATION_INVALID_001` failure naming each failing field; its
 * `detail` parameter is the English text of all of them.
 */
export function validationFailure(
  violations: readonly OperationViolation[],
): OperationFailure {
  return Object.freeze({
    code: 'VALIDATION_INVALID_001',
    key: failureKey('VALIDATION_INVALID_001'),
    params: Object.freeze({ detail: violationsText(violations) }),
    violations: Object.freeze(violations.map((v) => Object.freeze(v))),
  });
}

/**
 * The English text of a failure as the library ships it,
 * `<CODE>: <message>`, without any application catalogue. Carriers use
 * `OperationMessages.describe()` for the caller's language.
 *
 * @publicApi
 */
export function formatFailure(failure: OperationFailure): string {
  return describeFailure(failure);
}
