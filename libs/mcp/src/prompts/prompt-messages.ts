import { contentObject } from '../content/content-json.js';
import { McpContent, type McpContentBlock } from '../content/mcp-content.js';

/**
 * One message of a prompt, from the user or the assistant.
 *
 * @publicApi
 */
export interface PromptMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What it holds: a block `McpContent` makes, bytes as base64. */
  readonly content: McpContentBlock;
}

/**
 * What a `@Prompt()` method returns: its messages, in order, and an
 * optional description.
 *
 * ```ts
 * return new PromptMessages('Restock')
 *   .user(`Draft a restock order for ${input.product}.`)
 *   .user(McpContent.image(chartPng, 'image/png'));
 * ```
 *
 * @publicApi
 */
export class PromptMessages {
  /** The messages, in the order they were added. */
  readonly messages: PromptMessage[] = [];

  constructor(
    /** What the prompt is, as `prompts/get` describes it. */
    readonly description?: string,
  ) {}

  /** Adds a message from the user: a text or any `McpContent` block. */
  user(content: string | McpContentBlock): this {
    return this.add('user', content);
  }

  /** Adds a message from the assistant: a text or any `McpContent` block. */
  assistant(content: string | McpContentBlock): this {
    return this.add('assistant', content);
  }

  private add(role: PromptMessage['role'], content: string | McpContentBlock) {
    this.messages.push({
      role,
      content:
        typeof content === 'string'
          ? McpContent.text(content)
          : contentObject(content),
    });
    return this;
  }
}
