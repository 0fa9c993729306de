import type { Type } from '@nestjs/common';
import type { ClientCapability, InvocationContext } from '@nestops/operations';
import { Callable } from '@nestops/operations/internal';
import { PROMPT_KIND } from './prompt.constants.js';

/**
 * What `@Prompt()` declares about one provider method.
 *
 * @publicApi
 */
export interface PromptOptions {
  /**
   * The prompt's name in `prompts/list` and `prompts/get`: letters, digits,
   * `_` and `-` (no `.`, which `@Complete()` reads as an operation id).
   */
  name: string;
  /**
   * A short human-readable name, in the application's default language;
   * the message catalogue's `<name>.title` wins in each language.
   */
  title?: string;
  /**
   * What the prompt is for, in the application's default language; the
   * message catalogue's `<name>.description` wins in each language.
   */
  description?: string;
  /** Permission(s) the caller must hold, as for an operation. */
  permission?: string | readonly string[];
  /** The app's own check after the permissions, as for an operation. */
  policy?: (context: InvocationContext) => boolean | Promise<boolean>;
  /** The forms it asks the user to fill in with `context.elicit()`, as for an operation. */
  elicits?: readonly Type<unknown>[];
  /** What the client must be able to answer for it to run, as for an operation. */
  requires?: readonly ClientCapability[];
}

/**
 * Declares a provider method as an MCP prompt. Its arguments are the
 * method's first parameter, a DTO of string properties with class-validator
 * rules (none: a prompt without arguments); it returns `PromptMessages`.
 * `prompts/get` runs it as a tool call runs an operation: the app's guards,
 * the permission and policy, pipes and validation, interceptors, filters
 * and deadline.
 *
 * ```ts
 * @Prompt({ name: 'restock', description: 'Drafts a restock order.' })
 * restock(input: RestockDto): PromptMessages { ... }
 * ```
 *
 * @publicApi
 */
export const Prompt = (options: PromptOptions): MethodDecorator =>
  Callable({
    kind: PROMPT_KIND,
    id: options.name,
    title: options.title,
    description: options.description,
    permission: options.permission,
    policy: options.policy,
    elicits: options.elicits,
    requires: options.requires,
    expose: ['mcp'],
  });
