import type { JsonSchema, OperationDefinition } from '@nestops/operations';
import type { LocalizedOperation } from '@nestops/operations/internal';
import type { McpTool } from './mcp-tool.interface.js';
import {
  type ParamHeader,
  withParamHeaders,
} from '../headers/param-headers.js';

/** A tool's `_meta` when each call asks the user to confirm it first. */
export const CONFIRMATION_META = Object.freeze({
  'nestops/confirmation': 'required',
});

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

/**
 * The `tools/list` entry of an operation, with its texts and schemas in one
 * language (by default the operation's own: its decorators' texts); the
 * properties mirrored in headers (`paramHeaders`) marked `x-mcp-header`.
 */
export function createTool(
  name: string,
  operation: OperationDefinition,
  texts: LocalizedOperation = operation,
  paramHeaders: readonly ParamHeader[] = [],
  confirmed = false,
): McpTool {
  const { input, semantics } = operation;
  const { inputSchema, outputSchema } = texts;
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
          ? withParamHeaders(inputSchema, paramHeaders)
          : ANY_OBJECT,
    ...(outputSchema?.type === 'object' ? { outputSchema } : {}),
    annotations: Object.freeze({
      readOnlyHint: semantics.readOnly,
      destructiveHint: semantics.destructive,
      idempotentHint: semantics.idempotent,
      ...(semantics.openWorld === undefined
        ? {}
        : { openWorldHint: semantics.openWorld }),
    }),
    ...(confirmed ? { _meta: CONFIRMATION_META } : {}),
  });
}
