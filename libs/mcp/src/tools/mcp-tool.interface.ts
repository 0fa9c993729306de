import type { JsonSchema } from '@nestops/operations';

/** Behaviour hints of a tool (MCP `ToolAnnotations`). */
export interface McpToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
}

/** One entry of `tools/list`. */
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations: McpToolAnnotations;
}

/** One block of a tool result's `content`. */
export interface McpTextContent {
  readonly type: 'text';
  readonly text: string;
}

/**
 * The result of `tools/call`: the response JSON as text (and as
 * `structuredContent` when it is an object), or a failure with `isError`
 * and the text `<CODE>: <message>`.
 */
export interface McpToolResult {
  readonly content: readonly McpTextContent[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: true;
}
