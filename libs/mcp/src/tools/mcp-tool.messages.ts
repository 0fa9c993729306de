import type { OperationDefinition } from '@nestops/operations';
import { TOOL_NAME_PATTERN } from '../mcp.constants.js';

export const INVALID_TOOL_NAME = 'PROTOCOLS_VALIDATION_004';
export const DUPLICATE_TOOL_NAME = 'PROTOCOLS_CONFLICT_001';

const describe = (operation: OperationDefinition) =>
  `operation '${operation.id}' (${operation.source})`;

export const invalidToolNameMessage = (
  name: string,
  operation: OperationDefinition,
) =>
  `Tool name ${JSON.stringify(name)} of ${describe(operation)} does not match ${TOOL_NAME_PATTERN.source}.`;

export const duplicateToolNameMessage = (
  name: string,
  first: OperationDefinition,
  second: OperationDefinition,
) =>
  `Tool name '${name}' is published by both ${describe(first)} and ${describe(second)}; rename one in McpModule options 'tools'.`;

export const unknownOverrideMessage = (operationId: string) =>
  `Invalid McpModule options: tools names '${operationId}', which is not an operation of this application.`;

/**
 * The startup warning naming the tools without a description (with the
 * catalogue key each one would read) and the ways to give one.
 */
export const undescribedToolsMessage = (
  tools: readonly { readonly tool: string; readonly key: string }[],
) =>
  `${tools.length} MCP tool(s) without a description: ${tools
    .map(({ tool, key }) => `${tool} (key ${key})`)
    .join(
      ', ',
    )}. Clients and models choose tools by their descriptions: give each one with @Operation({ description }) or with its key in the message catalogue, and describe its input properties with @JSONSchema({ description }) from @nestops/operations.`;
