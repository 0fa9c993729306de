import { OperationException } from '../../errors/operation.exception.js';
import {
  libraryViolation,
  type ValidationMessageKey,
} from '../../i18n/library-messages.js';
import { INPUT_LIMITS, type InputLimits } from './input-limits.js';
import { type DtoClass, InputPlan } from './input-plan.js';
import { textProblem } from './text-check.js';

/** Keys that could reach an object's prototype when copied or transformed. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** Deepest nesting accepted in an operation's input. */
export const MAX_INPUT_DEPTH = INPUT_LIMITS.maxDepth;

/** Where a value sits in the input, and what its DTO says about it. */
interface Place {
  readonly depth: number;
  /** `order.lines.0.sku`; empty for the input itself. */
  readonly path: string;
  /** Inside an `@AllowRawText()` property: strings are not checked. */
  readonly raw: boolean;
  /** The DTO class the value becomes, given the value. */
  readonly typeOf?: (value: unknown) => DtoClass | undefined;
  /** Shared by the whole input: properties no DTO declares, so far. */
  readonly unknown: { count: number };
  readonly limits: InputLimits;
}

/**
 * A copy of parsed JSON input without prototype-polluting keys, checked in
 * one linear pass before anything costly (guards, class-transformer,
 * class-validator) sees it. It fails with `VALIDATION_INVALID_001` for input
 * beyond `INPUT_LIMITS`, strings with NUL or lone surrogates (except in
 * `@AllowRawText()` properties of `inputType` and its nested DTOs), and keys
 * naming `Object.prototype` members or DTO methods, which class-transformer
 * would otherwise drop without a word.
 */
export function sanitizeInput(
  value: unknown,
  inputType?: DtoClass,
  limits: InputLimits = INPUT_LIMITS,
): unknown {
  return sanitize(value, {
    depth: 0,
    path: '',
    raw: false,
    typeOf: inputType && (() => inputType),
    unknown: { count: 0 },
    limits,
  });
}

function sanitize(value: unknown, place: Place): unknown {
  if (typeof value === 'string') {
    return checkString(value, place);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if (place.depth >= place.limits.maxDepth) {
    throw invalid(INPUT, 'maxDepth', place.limits.maxDepth);
  }
  if (Array.isArray(value)) {
    return sanitizeArray(value, place);
  }
  return sanitizeObject(value as Record<string, unknown>, place);
}

function sanitizeArray(value: readonly unknown[], place: Place): unknown[] {
  if (value.length > place.limits.maxItems) {
    throw invalid(place.path, 'maxItems', place.limits.maxItems);
  }
  return value.map((item, index) =>
    sanitize(item, {
      ...place,
      depth: place.depth + 1,
      path: join(place.path, String(index)),
    }),
  );
}

function sanitizeObject(
  value: Record<string, unknown>,
  place: Place,
): Record<string, unknown> {
  const keys = Object.keys(value);
  if (keys.length > place.limits.maxProperties) {
    throw invalid(place.path, 'maxProperties', place.limits.maxProperties);
  }
  const type = place.typeOf?.(value);
  const plan = type && InputPlan.of(type);
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) {
      continue;
    }
    if (key in Object.prototype || plan?.isMember(key)) {
      throw invalid(join(place.path, key), 'whitelistValidation');
    }
    if (plan && !plan.declares(key)) {
      countUnknown(place);
    }
    if (!place.raw) {
      const problem = textProblem(key);
      if (problem) {
        throw invalid(
          place.path,
          problem === 'nulCharacter'
            ? 'propertyNameNulCharacter'
            : 'propertyNameLoneSurrogate',
        );
      }
    }
    copy[key] = sanitize(value[key], {
      depth: place.depth + 1,
      path: join(place.path, key),
      raw: place.raw || (plan?.allowsRawText(key) ?? false),
      typeOf: plan && ((item) => plan.classOf(key, value, item)),
      unknown: place.unknown,
      limits: place.limits,
    });
  }
  return copy;
}

function countUnknown(place: Place): void {
  if (++place.unknown.count > place.limits.maxUnknownProperties) {
    throw invalid(
      INPUT,
      'maxUnknownProperties',
      place.limits.maxUnknownProperties,
    );
  }
}

function checkString(value: string, place: Place): string {
  if (value.length > place.limits.maxStringLength) {
    throw invalid(place.path, 'maxStringLength', place.limits.maxStringLength);
  }
  const problem = place.raw ? undefined : textProblem(value);
  if (problem) {
    throw invalid(place.path, problem);
  }
  return value;
}

/** How a failure names the input as a whole. */
const INPUT = 'input';

function invalid(
  path: string,
  constraint: ValidationMessageKey,
  limit?: number,
): OperationException {
  return OperationException.invalid([
    libraryViolation(
      path || INPUT,
      constraint,
      limit === undefined ? {} : { limit },
    ),
  ]);
}

/** As Nest's `ValidationPipe` names a nested property. */
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
