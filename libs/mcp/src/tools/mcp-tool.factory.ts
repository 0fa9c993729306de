import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import type { McpTool } from './mcp-tool.interface.js';

/** An operation without input takes no arguments: any property is rejected. */
const NO_INPUT: JsonSchema = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
  additionalProperties: false,
});
/** An input whose schema is not an object: published as an open object. */
const ANY_OBJECT: JsonSchema = Object.freeze({ type: 'object' });

/** The default tool name of an operation: every `.` of its id becomes `_`. */
export function defaultToolName(operationId: string): string {
  return operationId.replaceAll('.', '_');
}

/** A tool's title and description in one language, where the catalogue has them. */
export interface ToolTexts {
  readonly title?: string;
  readonly description?: string;
}

/**
 * The message keys of an operation's title and description:
 * `<operation id>.title` and `.description`, with each `-` of the id
 * written `_` (`tenant_members.list.title`).
 */
export function toolTextKeys(operationId: string): {
  readonly title: string;
  readonly description: string;
} {
  const base = operationId.replaceAll('-', '_');
  return { title: `${base}.title`, description: `${base}.description` };
}

/** The `tools/list` entry of an operation. */
export function createTool(
  name: string,
  operation: OperationDefinition,
  texts: ToolTexts = {},
): McpTool {
  const { input, inputSchema, outputSchema, semantics } = operation;
  return Object.freeze({
    name,
    ...(texts.title !== undefined ? { title: texts.title } : {}),
    ...(texts.description !== undefined
      ? { description: texts.description }
      : {}),
    inputSchema:
      input === undefined
        ? NO_INPUT
        : inputSchema?.type === 'object'
          ? inputSchema
          : ANY_OBJECT,
    ...(outputSchema?.type === 'object' ? { outputSchema } : {}),
    annotations: Object.freeze({
      readOnlyHint: semantics.readOnly,
      destructiveHint: semantics.destructive,
      idempotentHint: semantics.idempotent,
    }),
  });
}
