// A result wrapped for one carrier (an MCP tool result with an image): the
// core serialises its structured part and hands the wrapper on unread.

/** Shared across copies of the package, so one marks what another reads. */
const STRUCTURED = Symbol.for('@nestops/operations:structured');

type Marked = { readonly [STRUCTURED]?: { readonly value: unknown } };

/**
 * Marks `wrapper` as a result whose structured part is `structured`: the
 * part the operation's output contract describes and checks. The rest of
 * the wrapper is its carrier's to read (`InvocationResult.carried`).
 */
export function markCarried<T extends object>(
  wrapper: T,
  structured: unknown,
): T {
  Object.defineProperty(wrapper, STRUCTURED, {
    value: Object.freeze({ value: structured }),
  });
  return wrapper;
}

/** The structured part of a marked wrapper; undefined for any other value. */
export function carriedPart(
  value: unknown,
): { readonly value: unknown } | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Marked)[STRUCTURED]
    : undefined;
}
