import { READ_ONLY_VERBS } from './operations.constants.js';

/**
 * What an operation does to the state it touches, derived from its verb and
 * `readOnly` flag. Carriers map it onto their own vocabulary (MCP tool
 * annotations, HTTP methods).
 *
 * @publicApi
 */
export interface OperationSemantics {
  /** Reads only; calling it changes nothing. */
  readonly readOnly: boolean;
  /** May destroy or irreversibly change existing state. */
  readonly destructive: boolean;
  /** Calling it twice with the same input has the effect of calling it once. */
  readonly idempotent: boolean;
}

const semantics = (
  readOnly: boolean,
  destructive: boolean,
  idempotent: boolean,
): OperationSemantics => Object.freeze({ readOnly, destructive, idempotent });

const READ = semantics(true, false, true);
const BY_VERB: ReadonlyMap<string, OperationSemantics> = new Map([
  ['create', semantics(false, false, false)],
  ['update', semantics(false, false, true)],
  ['delete', semantics(false, true, true)],
]);
const OTHER = semantics(false, true, false);

/** Read-only for `get`, `list` or `readOnly: true`; otherwise by verb, and destructive for unknown verbs. */
export function operationSemantics(
  verb: string,
  readOnly = false,
): OperationSemantics {
  if (readOnly || READ_ONLY_VERBS.has(verb)) {
    return READ;
  }
  return BY_VERB.get(verb) ?? OTHER;
}
