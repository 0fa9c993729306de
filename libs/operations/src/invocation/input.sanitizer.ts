import { OperationException } from '../errors/operation.exception';

/** Keys that could reach an object's prototype when copied or transformed. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** Deepest nesting accepted in an operation's input. */
export const MAX_INPUT_DEPTH = 32;

/**
 * A copy of parsed JSON input without prototype-polluting keys, rejecting
 * input nested deeper than `MAX_INPUT_DEPTH` before anything recursive
 * (class-transformer, class-validator) sees it.
 */
export function sanitizeInput(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if (depth >= MAX_INPUT_DEPTH) {
    throw new OperationException('VALIDATION_INVALID_001', {
      detail: `input is nested deeper than ${MAX_INPUT_DEPTH} levels`,
    });
  }
  if (Array.isArray(value)) {
    return value.map((item) => sanitizeInput(item, depth + 1));
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!FORBIDDEN_KEYS.has(key)) {
      copy[key] = sanitizeInput(item, depth + 1);
    }
  }
  return copy;
}
