import type { OperationDefinition } from './interfaces/operation-contract.js';
import { READ_ONLY_VERBS } from './operations.constants.js';

/** What an operation does to the state it touches (`OperationDefinition.semantics`). */
export type OperationSemantics = OperationDefinition['semantics'];

/** What `@Operation` states beside its verb. */
export interface StatedSemantics {
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  readonly openWorld?: boolean;
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

/**
 * The verb's semantics with what the operation states overriding them;
 * undefined when they contradict each other (read-only and destructive).
 */
export function statedSemantics(
  verb: string,
  stated: StatedSemantics,
): OperationSemantics | undefined {
  const implied = operationSemantics(verb, stated.readOnly === true);
  const destructive = stated.destructive ?? implied.destructive;
  if (implied.readOnly && destructive) {
    return undefined;
  }
  if (
    stated.destructive === undefined &&
    stated.idempotent === undefined &&
    stated.openWorld === undefined
  ) {
    return implied;
  }
  return Object.freeze({
    readOnly: implied.readOnly,
    destructive,
    idempotent: stated.idempotent ?? implied.idempotent,
    ...(stated.openWorld === undefined ? {} : { openWorld: stated.openWorld }),
  });
}
