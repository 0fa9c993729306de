import { getMetadataStorage, type ValidationError } from 'class-validator';
import type { OperationViolation } from '../errors/operation-failure.js';
import { validationStorage } from './validation-metadata-cache.js';

type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

/**
 * Each failing constraint of class-validator's errors as a violation: the
 * field's path (prefixed as Nest's `ValidationPipe` does), the constraint's
 * name and its decorator arguments, read from class-validator's metadata of
 * the failing object's class so that the text can be translated.
 */
export function violationsOf(
  errors: readonly ValidationError[],
  path = '',
): OperationViolation[] {
  const violations: OperationViolation[] = [];
  for (const error of errors) {
    const property = path + error.property;
    const metadata = metadataOf(error);
    for (const [constraint, message] of Object.entries(
      error.constraints ?? {},
    )) {
      const declared = metadata.find((m) => (m.name ?? m.type) === constraint);
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
    if (error.children?.length) {
      violations.push(...violationsOf(error.children, `${property}.`));
    }
  }
  return violations;
}

function metadataOf(error: ValidationError): readonly ValidationMetadata[] {
  const type = (error.target as object | undefined)?.constructor;
  if (typeof type !== 'function' || type === Object) {
    return [];
  }
  return validationStorage()
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
