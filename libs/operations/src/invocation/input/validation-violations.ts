import {
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE,
  IS_INT,
  IS_NUMBER,
  IS_OBJECT,
  IS_STRING,
  getMetadataStorage,
  type ValidationError,
  ValidationTypes,
} from 'class-validator';
import type { OperationViolation } from '../../errors/operation-failure.js';
import { libraryViolation } from '../../i18n/library-messages.js';
import type { ValidationMetadata } from '../../nest/class-validator.adapter.js';

/**
 * Constraints that check a value's type: when one fails, the field's other
 * rules say nothing more (a number is not "shorter than 200 characters").
 */
const TYPE_CONSTRAINTS: ReadonlySet<string> = new Set([
  IS_STRING,
  IS_INT,
  IS_NUMBER,
  IS_BOOLEAN,
  IS_ARRAY,
  IS_OBJECT,
  IS_DATE,
  ValidationTypes.NESTED_VALIDATION,
]);

/**
 * class-validator's errors as violations, one per failing rule that tells
 * the caller something: a field that is absent is one `required`
 * violation, a value of the wrong type is its (first) failing type rule,
 * and any other value is each constraint it fails. Each names the field's
 * path (prefixed as Nest's `ValidationPipe` does), the constraint's name
 * and its decorator arguments, read from class-validator's metadata of the
 * failing object's class so that the text can be translated.
 */
export function violationsOf(
  errors: readonly ValidationError[],
  path = '',
): OperationViolation[] {
  const violations: OperationViolation[] = [];
  for (const error of errors) {
    const property = path + error.property;
    const failed = reported(error);
    if (failed === REQUIRED) {
      violations.push(libraryViolation(property, 'required'));
    } else {
      const metadata = failed.length > 0 ? metadataOf(error) : [];
      for (const [constraint, message] of failed) {
        const declared = metadata.find(
          (m) => (m.name ?? m.type) === constraint,
        );
        violations.push({
          property,
          constraint,
          params: argumentsOf(declared),
          message,
          ...(declared && (declared.message !== undefined || declared.each)
            ? { custom: true }
            : {}),
        });
      }
    }
    if (error.children?.length) {
      violations.push(...violationsOf(error.children, `${property}.`));
    }
  }
  return violations;
}

const REQUIRED = Symbol('required');

/** The constraints of an error worth reporting, or REQUIRED for an absent field. */
function reported(
  error: ValidationError,
): readonly (readonly [string, string])[] | typeof REQUIRED {
  const failed = Object.entries(error.constraints ?? {});
  if (failed.length === 0) {
    return failed;
  }
  const target = error.target as Record<string, unknown> | undefined;
  if (
    typeof target === 'object' &&
    target !== null &&
    typeof error.property === 'string' &&
    target[error.property] === undefined
  ) {
    return REQUIRED;
  }
  const type = failed.find(([constraint]) => TYPE_CONSTRAINTS.has(constraint));
  return type ? [type] : failed;
}

function metadataOf(error: ValidationError): readonly ValidationMetadata[] {
  const type = (error.target as object | undefined)?.constructor;
  if (typeof type !== 'function' || type === Object) {
    return [];
  }
  return getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .filter((m) => m.propertyName === error.property);
}

/** `constraint1`, `constraint2`, ... as class-validator's messages name them. */
function argumentsOf(
  metadata: ValidationMetadata | undefined,
): Record<string, string> {
  const args: Record<string, string> = {};
  (metadata?.constraints ?? []).forEach((value: unknown, index) => {
    args[`constraint${index + 1}`] = Array.isArray(value)
      ? value.map(String).join(', ')
      : typeof value === 'object' &&
          value !== null &&
          !(value instanceof RegExp)
        ? Object.values(value).map(String).join(', ')
        : String(value);
  });
  return args;
}
