import Negotiator from 'negotiator';

/** How the application names languages: its own fallbacks (`zh-*` -> `zh-CN`). */
export type LanguageMapper = (tag: string) => string;

const PRIMARY = (tag: string) => tag.split(/[-_]/, 1)[0].toLowerCase();

/**
 * The language of `languages` that best serves `preference`, an
 * `Accept-Language` value or a single tag: the most preferred exact or
 * prefix match (quality values honoured; `zh` matches `zh-CN`), else a tag
 * the application's fallbacks map onto one of its languages, else one with
 * the same primary language (`zh-TW` -> `zh-CN`), else `fallback`.
 */
export function negotiateLocale(
  preference: string | undefined,
  languages: readonly string[],
  fallback: string,
  map: LanguageMapper = (tag) => tag,
): string {
  if (preference === undefined || preference.trim() === '') {
    return fallback;
  }
  // The fallback first: a wildcard (`*`) takes the first language offered.
  const offered = [fallback, ...languages.filter((l) => l !== fallback)];
  const negotiator = new Negotiator({
    headers: { 'accept-language': preference },
  });
  const matched = negotiator.language(offered);
  if (matched !== undefined) {
    return matched;
  }
  const wanted = negotiator.languages().filter((tag) => tag !== '*');
  for (const tag of wanted) {
    const mapped = map(tag);
    if (offered.includes(mapped)) {
      return mapped;
    }
  }
  for (const tag of wanted) {
    const loose = offered.find((l) => PRIMARY(l) === PRIMARY(tag));
    if (loose !== undefined) {
      return loose;
    }
  }
  return fallback;
}
