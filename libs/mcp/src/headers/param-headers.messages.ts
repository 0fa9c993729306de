import type { OperationDefinition } from '@nestops/operations';

/** The catalogue code of an `@McpHeader()` that cannot be published. */
export const INVALID_MCP_HEADER = 'PROTOCOLS_VALIDATION_009';

export const invalidMcpHeaderMessage = (
  operation: OperationDefinition,
  property: string,
  name: string,
  problem: string,
) =>
  `@McpHeader(${JSON.stringify(name)}) on ${operation.input?.name ?? 'the input'}.${property} of operation '${operation.id}' (${operation.source}) cannot be published: ${problem}.`;
