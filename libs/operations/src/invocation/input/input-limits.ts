/**
 * How much input one call may carry, checked in one linear pass before any
 * guard, pipe or validator runs.
 *
 * @publicApi
 */
export interface InputLimits {
  /** Deepest nesting of objects and arrays; the outermost is level 1. */
  readonly maxDepth: number;
  /** Most properties of one object. */
  readonly maxProperties: number;
  /**
   * Most properties, over the whole input, that the DTOs do not declare:
   * validation reports each, at a cost that grows faster than their number.
   */
  readonly maxUnknownProperties: number;
  /** Most items of one array. */
  readonly maxItems: number;
  /** Longest string, in UTF-16 code units (`string.length`). */
  readonly maxStringLength: number;
}

/**
 * The limits every call's input is held to. A DTO declares tens of
 * properties and a free-form map rarely more than hundreds, while
 * class-validator's unknown-property check costs more than linear time (80,000
 * keys held the event loop for seconds): hence 1,000 properties per object, and
1,000 undeclared ones per call, however they are spread over nested DTOs. 10,000 items
 * leave room for batch operations; 1 MiB of text is the MCP carrier's whole
 * default body, so it binds only where a carrier accepts more, and keeps
 * regular-expression validators on bounded strings.
 *
 * @publicApi
 */
export const INPUT_LIMITS: InputLimits = Object.freeze({
  maxDepth: 32,
  maxProperties: 1_000,
  maxUnknownProperties: 1_000,
  maxItems: 10_000,
  maxStringLength: 1_048_576,
});
