/**
 * A concrete resource as `resources/list` shows it: an operation with a
 * fixed URI (`@Operation({ resource: 'orders://recent' })`).
 *
 * @publicApi
 */
export interface McpResource {
  /** The URI `resources/read` reads. */
  readonly uri: string;
  /** The operation's tool name. */
  readonly name: string;
  /** The operation's title in the caller's language, when it has one. */
  readonly title?: string;
  /** The operation's description in the caller's language, when it has one. */
  readonly description?: string;
  /** The content's MIME type (default `application/json`). */
  readonly mimeType: string;
}

/**
 * A resource template as `resources/templates/list` shows it: an operation
 * read at a URI template (`@Operation({ resource: 'orders://{id}' })`).
 *
 * @publicApi
 */
export interface McpResourceTemplate {
  /** The RFC 6570 level 1 template; its variables are input properties. */
  readonly uriTemplate: string;
  /** The operation's tool name. */
  readonly name: string;
  /** The operation's title in the caller's language, when it has one. */
  readonly title?: string;
  /** The operation's description in the caller's language, when it has one. */
  readonly description?: string;
  /** The content's MIME type (default `application/json`). */
  readonly mimeType: string;
}

/**
 * One item of a `resources/read` result: the operation's result as `text`
 * (its JSON, or the string it returned) or as `blob` (the bytes it
 * returned, base64).
 *
 * @publicApi
 */
export type McpReadContents =
  | {
      readonly uri: string;
      readonly mimeType: string;
      readonly text: string;
    }
  | {
      readonly uri: string;
      readonly mimeType: string;
      readonly blob: string;
    };
