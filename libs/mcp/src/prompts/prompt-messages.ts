/**
 * Text in a prompt message.
 *
 * @publicApi
 */
export interface PromptTextContent {
  /** Always `text`. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/**
 * An image or a sound in a prompt message, base64-encoded.
 *
 * @publicApi
 */
export interface PromptBinaryContent<T extends 'image' | 'audio'> {
  /** `image` or `audio`. */
  readonly type: T;
  /** The bytes, base64-encoded. */
  readonly data: string;
  /** `image/png`, `audio/wav`... */
  readonly mimeType: string;
}

/**
 * A resource's contents embedded in a prompt message: text or base64 bytes.
 *
 * @publicApi
 */
export interface PromptEmbeddedResource {
  /** Always `resource`. */
  readonly type: 'resource';
  /** The resource's URI and contents. */
  readonly resource:
    | {
        readonly uri: string;
        readonly mimeType?: string;
        readonly text: string;
      }
    | {
        readonly uri: string;
        readonly mimeType?: string;
        readonly blob: string;
      };
}

/**
 * A link to a resource the client may read, in a prompt message.
 *
 * @publicApi
 */
export interface PromptResourceLink {
  /** Always `resource_link`. */
  readonly type: 'resource_link';
  /** The resource's URI. */
  readonly uri: string;
  /** Its name. */
  readonly name: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What it holds. */
  readonly description?: string;
  /** Its contents' MIME type. */
  readonly mimeType?: string;
}

/**
 * What one prompt message holds.
 *
 * @publicApi
 */
export type PromptContent =
  | PromptTextContent
  | PromptBinaryContent<'image'>
  | PromptBinaryContent<'audio'>
  | PromptEmbeddedResource
  | PromptResourceLink;

/**
 * One message of a prompt, from the user or the assistant.
 *
 * @publicApi
 */
export interface PromptMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What it holds. */
  readonly content: PromptContent;
}

/** Bytes as base64: a string is taken as already encoded. */
function base64(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString(
        'base64',
      );
}

/**
 * The contents a prompt message can hold, for `PromptMessages#user` and
 * `#assistant`.
 *
 * @publicApi
 */
export const PromptContents = Object.freeze({
  /** Text. */
  text: (text: string): PromptTextContent => ({ type: 'text', text }),
  /** An image: its bytes, or their base64 text. */
  image: (
    data: string | Uint8Array,
    mimeType: string,
  ): PromptBinaryContent<'image'> => ({
    type: 'image',
    data: base64(data),
    mimeType,
  }),
  /** A sound: its bytes, or their base64 text. */
  audio: (
    data: string | Uint8Array,
    mimeType: string,
  ): PromptBinaryContent<'audio'> => ({
    type: 'audio',
    data: base64(data),
    mimeType,
  }),
  /** A resource's contents: `text`, or bytes (`blob`, base64-encoded here). */
  resource: (
    resource:
      | { uri: string; mimeType?: string; text: string }
      | { uri: string; mimeType?: string; blob: string | Uint8Array },
  ): PromptEmbeddedResource => ({
    type: 'resource',
    resource:
      'text' in resource
        ? { ...resource }
        : { ...resource, blob: base64(resource.blob) },
  }),
  /** A link to a resource, by its URI and a name. */
  resourceLink: (
    link: Omit<PromptResourceLink, 'type'>,
  ): PromptResourceLink => ({ type: 'resource_link', ...link }),
});

/**
 * What a `@Prompt()` method returns: its messages, in order, and an
 * optional description.
 *
 * ```ts
 * return new PromptMessages('Restock')
 *   .user(`Draft a restock order for ${input.product}.`)
 *   .user(PromptContents.image(chartPng, 'image/png'));
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

  /** Adds a message from the user: a text or any `PromptContents`. */
  user(content: string | PromptContent): this {
    return this.add('user', content);
  }

  /** Adds a message from the assistant: a text or any `PromptContents`. */
  assistant(content: string | PromptContent): this {
    return this.add('assistant', content);
  }

  private add(role: PromptMessage['role'], content: string | PromptContent) {
    this.messages.push({
      role,
      content:
        typeof content === 'string' ? PromptContents.text(content) : content,
    });
    return this;
  }
}
