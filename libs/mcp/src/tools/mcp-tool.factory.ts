import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import type { McpTool } from './mcp-tool.interface';

const EMPTY_INPUT: JsonSchema = Object.freeze({ type: 'object' });

/** The default tool name of an operation: every `.` of its id becomes `_`. */
export function defaultToolName(operationId: string): string {
  return operationId.replaceAll('.', '_');
}

/** The `tools/list` entry of an operation. */
export function createTool(
  name: string,
  operation: OperationDefinition,
): McpTool {
  const { inputSchema, outputSchema, semantics } = operation;
  return Object.freeze({
    name,
    inputSchema: inputSchema?.type === 'object' ? inputSchema : EMPTY_INPUT,
    ...(outputSchema?.type === 'object' ? { outputSchema } : {}),
    annotations: Object.freeze({
      readOnlyHint: semantics.readOnly,
      destructiveHint: semantics.destructive,
      idempotentHint: semantics.idempotent,
    }),
  });
}
