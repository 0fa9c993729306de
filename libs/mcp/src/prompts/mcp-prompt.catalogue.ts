import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import {
  ContractError,
  heldPermissions,
  OperationMessages,
  OperationRegistry,
  OperationTexts,
} from '@nestops/operations/internal';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { PROMPT_KIND, PROMPT_NAME_PATTERN } from './prompt.constants.js';
import {
  INVALID_PROMPT,
  invalidPromptNameMessage,
  nonStringArgumentMessage,
} from './prompt.messages.js';

/**
 * One argument of a `prompts/list` entry.
 *
 * @publicApi
 */
export interface McpPromptArgument {
  /** The DTO property's name. */
  readonly name: string;
  /** Its description in the caller's language, if it has one. */
  readonly description?: string;
  /** Whether the DTO requires it. */
  readonly required: boolean;
}

/**
 * One entry of `prompts/list`.
 *
 * @publicApi
 */
export interface McpPromptEntry {
  /** `@Prompt({ name })`. */
  readonly name: string;
  /** The title in the caller's language, if it has one. */
  readonly title?: string;
  /** The description in the caller's language, if it has one. */
  readonly description?: string;
  /** Its arguments, when it takes any. */
  readonly arguments?: readonly McpPromptArgument[];
}

/**
 * The app's `@Prompt()` methods, checked at bootstrap (a name MCP allows,
 * string arguments only), and their `prompts/list` entries per language,
 * ordered by name, from the same texts as the tools (`<name>.title`,
 * `<name>.description`, the DTO's property descriptions).
 */
@Injectable()
export class McpPromptCatalogue implements OnApplicationBootstrap {
  private prompts?: ReadonlyMap<string, OperationDefinition>;
  private readonly lists = new Map<string, readonly McpPromptEntry[]>();

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly registry: OperationRegistry,
    private readonly messages: OperationMessages,
    private readonly texts: OperationTexts,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /** Nest's bootstrap hook: a bad prompt stops the startup. */
  onApplicationBootstrap(): void {
    for (const language of this.messages.languages()) {
      this.list(language);
    }
  }

  /** The prompt `name`, or undefined. */
  find(name: string): OperationDefinition | undefined {
    return this.all().get(name);
  }

  /** The application's fallback language. */
  defaultLanguage(): string {
    return this.messages.fallbackLanguage();
  }

  /** Whether the app has prompts. */
  any(): boolean {
    return this.all().size > 0;
  }

  /** Whether a prompt has arguments. */
  hasArguments(): boolean {
    return [...this.all().values()].some(
      (prompt) => this.argumentsOf(prompt).length > 0,
    );
  }

  /** The names of the prompt's arguments, in order. */
  argumentsOf(prompt: OperationDefinition): readonly string[] {
    return Object.keys(prompt.inputSchema?.properties ?? {});
  }

  /** The prompt list in `locale`, by name. */
  list(locale: string): readonly McpPromptEntry[] {
    let list = this.lists.get(locale);
    if (!list) {
      list = Object.freeze(
        [...this.all().values()].map((prompt) => this.entry(prompt, locale)),
      );
      this.lists.set(locale, list);
    }
    return list;
  }

  /**
   * The permissions of the app's prompts `principal` holds, as a key
   * (sorted, space-separated) and a set.
   */
  reachOf(principal: unknown): { key: string; held: ReadonlySet<string> } {
    const held = heldPermissions(principal, this.settings.permissionsOf);
    const key = [
      ...new Set([...this.all().values()].flatMap((p) => p.permissions)),
    ]
      .filter((permission) => held.has(permission))
      .sort()
      .join(' ');
    return { key, held };
  }

  /** The entries of `list` whose prompt's permissions `held` holds. */
  within(
    list: readonly McpPromptEntry[],
    held: ReadonlySet<string>,
  ): readonly McpPromptEntry[] {
    return list.filter((entry) =>
      (this.find(entry.name)?.permissions ?? []).every((permission) =>
        held.has(permission),
      ),
    );
  }

  private entry(prompt: OperationDefinition, locale: string): McpPromptEntry {
    const texts = this.texts.of(prompt, locale);
    const schema = texts.inputSchema ?? prompt.inputSchema;
    const required = new Set(schema?.required ?? []);
    const args = Object.entries(schema?.properties ?? {}).map(
      ([name, property]: [string, JsonSchema]) => ({
        name,
        ...(typeof property.description === 'string'
          ? { description: property.description }
          : {}),
        required: required.has(name),
      }),
    );
    return Object.freeze({
      name: prompt.id,
      ...(texts.title !== undefined ? { title: texts.title } : {}),
      ...(texts.description !== undefined
        ? { description: texts.description }
        : {}),
      ...(args.length > 0 ? { arguments: Object.freeze(args) } : {}),
    });
  }

  private all(): ReadonlyMap<string, OperationDefinition> {
    if (!this.prompts) {
      const prompts = [...this.registry.callables(PROMPT_KIND)].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      );
      for (const prompt of prompts) {
        checkPrompt(prompt);
      }
      this.prompts = new Map(prompts.map((prompt) => [prompt.id, prompt]));
    }
    return this.prompts;
  }
}

/** Throws when a prompt's name or arguments cannot be published. */
function checkPrompt(prompt: OperationDefinition): void {
  if (!PROMPT_NAME_PATTERN.test(prompt.id)) {
    throw new ContractError(INVALID_PROMPT, invalidPromptNameMessage(prompt));
  }
  for (const [name, property] of Object.entries(
    prompt.inputSchema?.properties ?? {},
  )) {
    const type = property.type;
    const strings =
      type === 'string' ||
      (type === undefined &&
        Array.isArray(property.enum) &&
        property.enum.every((value) => typeof value === 'string'));
    if (!strings) {
      throw new ContractError(
        INVALID_PROMPT,
        nonStringArgumentMessage(prompt, name),
      );
    }
  }
}
