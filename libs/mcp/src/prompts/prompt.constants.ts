/** The kind of callable a `@Prompt()` method is. */
export const PROMPT_KIND = 'prompt';
/** The kind of callable a `@Complete()` method is. */
export const COMPLETER_KIND = 'completer';
/** What a prompt name may be: as a tool name, without `.`. */
export const PROMPT_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Most values one `completion/complete` answer holds (the specification's limit). */
export const MAX_COMPLETION_VALUES = 100;

/** The registry id of the completer of `argument` of `target`. */
export const completerId = (target: string, argument: string): string =>
  `${target} ${argument}`;
