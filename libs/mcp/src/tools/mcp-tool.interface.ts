import type { JsonSchema } from '@nestops/operations';

/** One entry of `tools/list`. */
export interface McpTool {
  /** The tool name: the operation id with `_` for `.` (`orders_create`), or the `tools` option's. */
  readonly name: string;
  /** The operation's title in the caller's language, if it has one. */
  readonly title?: string;
  /** The operation's description in the caller's language, if it has one. */
  readonly description?: string;
  /** The JSON Schema of the tool's `arguments`. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of its `structuredContent`, when the operation declares an output. */
  readonly outputSchema?: JsonSchema;
  /** What a call does to state, from the operation's semantics (MCP `ToolAnnotations`). */
  readonly annotations: {
    /** The tool changes nothing (`get`, `list`, `readOnly: true`). */
    readonly readOnlyHint: boolean;
    /** The tool may destroy or irreversibly change state (`delete`, unknown verbs, `destructive`). */
    readonly destructiveHint: boolean;
    /** Calling it twice with the same arguments does what calling it once does (`idempotent`). */
    readonly idempotentHint: boolean;
    /** The tool reaches an open world outside the app; only when `openWorld` states it. */
    readonly openWorldHint?: boolean;
  };
  /** `{ "nestops/confirmation": "required" }` when each call asks the user to confirm it first. */
  readonly _meta?: Readonly<Record<string, unknown>>;
  /** Whether a call may run as a task (`@Operation({ task })`); in 2026-07-28 lists only. */
  readonly execution?: { readonly taskSupport: 'optional' | 'required' };
}

/** Behaviour hints of a tool (MCP `ToolAnnotations`). */
export type McpToolAnnotations = McpTool['annotations'];

/**
 * The result of `tools/call`: the response JSON as text (and as
 * `structuredContent` when it is an object), or a failure with `isError`
 * and the text `<CODE>: <message>`. A result an operation wrapped in
 * `McpResult` has its other blocks after that text (images, resources:
 * read them from `content` by their `type`); this type describes the text
 * blocks only.
 */
export interface McpToolResult {
  /** One text block: the result's JSON text, or the failure's text. */
  readonly content: readonly {
    /** Always `text`: results are JSON text. */
    readonly type: 'text';
    /** The result as JSON text, or a failure's `<CODE>: <message>`. */
    readonly text: string;
  }[];
  /** The result itself, when it is a JSON object. */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  /** Present (true) when the operation failed. */
  readonly isError?: true;
}

/** One block of a tool result's `content`. */
export type McpTextContent = McpToolResult['content'][number];
