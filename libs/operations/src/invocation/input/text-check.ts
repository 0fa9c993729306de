/**
 * NUL or a lone surrogate: with the `u` flag a well-formed surrogate pair is
 * one code point outside the class, so only unpaired halves match.
 */
const UNSAFE_TEXT = /[\0\uD800-\uDFFF]/u;

/** What is wrong with `text` as input text, or undefined when nothing is. */
export function textProblem(
  text: string,
): 'nulCharacter' | 'loneSurrogate' | undefined {
  const found = UNSAFE_TEXT.exec(text);
  if (!found) {
    return undefined;
  }
  return found[0] === '\0' ? 'nulCharacter' : 'loneSurrogate';
}
