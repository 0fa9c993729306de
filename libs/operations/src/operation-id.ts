const SEGMENT = '[A-Za-z][A-Za-z0-9-]*';
const OPERATION_ID = new RegExp(`^${SEGMENT}(?:\\.${SEGMENT})+$`);

/** An operation id split into the resource and the verb after its last dot. */
export interface ParsedOperationId {
  readonly resource: string;
  readonly verb: string;
}

/**
 * Splits `<resource>.<verb>` (`tenant-members.list`) into its parts, or
 * returns undefined when the id does not have that shape.
 */
export function parseOperationId(id: unknown): ParsedOperationId | undefined {
  if (typeof id !== 'string' || !OPERATION_ID.test(id)) {
    return undefined;
  }
  const dot = id.lastIndexOf('.');
  return { resource: id.slice(0, dot), verb: id.slice(dot + 1) };
}
