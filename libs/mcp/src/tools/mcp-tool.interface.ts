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
