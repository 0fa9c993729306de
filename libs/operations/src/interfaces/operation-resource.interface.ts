// Where an operation is also read as an MCP resource: what it declares, what is discovered.

/**
 * `@Operation({ resource })` in full: where the operation is also read as
 * a resource, and as what.
 *
 * @publicApi
 */
export interface OperationResourceOptions {
  /** A URI, or a URI template whose `{variables}` are input properties. */
  readonly uri: string;
  /** The content's MIME type. Default: `application/json`. */
  readonly mimeType?: string;
}

/**
 * Where an operation is also read as a resource, as discovered.
 *
 * @publicApi
 */
export interface OperationResource {
  /** The URI or URI template, as `@Operation({ resource })` gives it. */
  readonly uri: string;
  /** The template's variables (input properties) in order; empty for a fixed URI. */
  readonly variables: readonly string[];
  /** The content's MIME type, when the operation states one. */
  readonly mimeType?: string;
}
