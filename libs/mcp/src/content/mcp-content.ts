/**
 * Binary data: the bytes (kept, not copied, until the answer is written),
 * or their base64 text.
 *
 * @publicApi
 */
export type McpBinary = Uint8Array | string;

/**
 * A block of a tool result's `content` beside its structured result:
 * what `McpContent`'s functions make.
 *
 * @publicApi
 */
export type McpContentBlock =
  | McpTextBlock
  | McpImageBlock
  | McpAudioBlock
  | McpEmbeddedResourceBlock
  | McpResourceLinkBlock;

/**
 * Text for the model to read.
 *
 * @publicApi
 */
export interface McpTextBlock {
  /** Always `text`. */
  readonly type: 'text';
  /** The text. */
  readonly text: string;
}

/**
 * An image, sent as base64 with its MIME type.
 *
 * @publicApi
 */
export interface McpImageBlock {
  /** Always `image`. */
  readonly type: 'image';
  /** The image's bytes, or their base64 text. */
  readonly data: McpBinary;
  /** `image/png`, `image/jpeg`... */
  readonly mimeType: string;
}

/**
 * A sound, sent as base64 with its MIME type.
 *
 * @publicApi
 */
export interface McpAudioBlock {
  /** Always `audio`. */
  readonly type: 'audio';
  /** The sound's bytes, or their base64 text. */
  readonly data: McpBinary;
  /** `audio/wav`, `audio/mpeg`... */
  readonly mimeType: string;
}

/**
 * The contents of a resource, embedded in the result.
 *
 * @publicApi
 */
export interface McpEmbeddedResourceBlock {
  /** Always `resource`. */
  readonly type: 'resource';
  /** The resource's URI, MIME type and either its text or its bytes (`blob`). */
  readonly resource: McpResourceContents;
}

/**
 * What `McpContent.resource()` embeds: text, or bytes (`blob`).
 *
 * @publicApi
 */
export type McpResourceContents =
  | {
      /** The resource's URI. */
      readonly uri: string;
      /** Its MIME type. */
      readonly mimeType?: string;
      /** Its contents as text. */
      readonly text: string;
    }
  | {
      /** The resource's URI. */
      readonly uri: string;
      /** Its MIME type. */
      readonly mimeType?: string;
      /** Its contents as bytes, or their base64 text. */
      readonly blob: McpBinary;
    };

/**
 * A link to a resource the client may read or fetch.
 *
 * @publicApi
 */
export interface McpResourceLinkBlock {
  /** Always `resource_link`. */
  readonly type: 'resource_link';
  /** The resource's URI. */
  readonly uri: string;
  /** Its name, for people and models. */
  readonly name: string;
  /** A display title. */
  readonly title?: string;
  /** What it holds. */
  readonly description?: string;
  /** Its MIME type. */
  readonly mimeType?: string;
  /** Its size in bytes. */
  readonly size?: number;
}

/**
 * What `McpContent.link()` takes beside the URI.
 *
 * @publicApi
 */
export type McpResourceLink = Omit<McpResourceLinkBlock, 'type' | 'uri'>;

/**
 * Most bytes one tool result's `content` may hold (8 MiB): binary data
 * counted decoded, text as UTF-8. A result over it fails when it is made,
 * inside the operation's method, so the call fails and its unit of work
 * rolls back.
 *
 * @publicApi
 */
export const MCP_CONTENT_MAX_BYTES = 8 * 1024 * 1024;

const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A MIME type's `type/subtype`, parameters allowed. */
const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/;

/**
 * Makes the blocks of a tool result's content (`McpResult`), each checked
 * as it is made: a MIME type of `type/subtype`, base64 text that is
 * base64, at most `MCP_CONTENT_MAX_BYTES`. Bytes are kept as given (not
 * copied) and written as base64 once, when the answer is written.
 *
 * @publicApi
 */
export const McpContent = Object.freeze({
  /** Text for the model to read. */
  text(text: string): McpTextBlock {
    return Object.freeze({ type: 'text', text });
  },

  /** An image: its bytes (or base64 text) and MIME type (`image/png`). */
  image(data: McpBinary, mimeType: string): McpImageBlock {
    return Object.freeze({
      type: 'image',
      data: binary('image', data),
      mimeType: mime('image', mimeType),
    });
  },

  /** A sound: its bytes (or base64 text) and MIME type (`audio/wav`). */
  audio(data: McpBinary, mimeType: string): McpAudioBlock {
    return Object.freeze({
      type: 'audio',
      data: binary('audio', data),
      mimeType: mime('audio', mimeType),
    });
  },

  /** A resource's contents, embedded: `{ uri, mimeType, text }` or `{ uri, mimeType, blob }`. */
  resource(contents: McpResourceContents): McpEmbeddedResourceBlock {
    if (contents.mimeType !== undefined) {
      mime('resource', contents.mimeType);
    }
    if ('blob' in contents) {
      binary('resource', contents.blob);
    }
    return Object.freeze({
      type: 'resource',
      resource: Object.freeze({ ...contents }),
    });
  },

  /** A link to a resource (`resource_link`): its URI and name, and what else is known of it. */
  link(uri: string, link: McpResourceLink): McpResourceLinkBlock {
    if (link.mimeType !== undefined) {
      mime('resource_link', link.mimeType);
    }
    return Object.freeze({ type: 'resource_link', uri, ...link });
  },
});

/** The bytes a block holds, as `MCP_CONTENT_MAX_BYTES` counts them. */
export function contentBytes(block: McpContentBlock): number {
  switch (block.type) {
    case 'text':
      return Buffer.byteLength(block.text);
    case 'image':
    case 'audio':
      return binaryBytes(block.data);
    case 'resource':
      return 'text' in block.resource
        ? Buffer.byteLength(block.resource.text)
        : binaryBytes(block.resource.blob);
    case 'resource_link':
      return 0;
  }
}

function binaryBytes(data: McpBinary): number {
  if (typeof data !== 'string') {
    return data.byteLength;
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function binary(kind: string, data: McpBinary): McpBinary {
  if (typeof data === 'string' ? !BASE64.test(data) : !isBytes(data)) {
    throw new TypeError(
      `McpContent.${kind}: the data must be a Uint8Array (a Buffer) or base64 text.`,
    );
  }
  const bytes = binaryBytes(data);
  if (bytes > MCP_CONTENT_MAX_BYTES) {
    throw new RangeError(tooLargeMessage(`McpContent.${kind}`, bytes));
  }
  return data;
}

function isBytes(data: unknown): data is Uint8Array {
  return data instanceof Uint8Array;
}

function mime(kind: string, mimeType: string): string {
  if (!MIME_TYPE.test(mimeType)) {
    throw new TypeError(
      `McpContent.${kind}: ${JSON.stringify(mimeType)} is not a MIME type (type/subtype).`,
    );
  }
  return mimeType;
}

/** The error text of content over `MCP_CONTENT_MAX_BYTES`. */
export function tooLargeMessage(what: string, bytes: number): string {
  return `${what}: ${bytes} bytes of content, over the ${MCP_CONTENT_MAX_BYTES} (MCP_CONTENT_MAX_BYTES) one tool result may hold; link to it with McpContent.link() instead.`;
}
