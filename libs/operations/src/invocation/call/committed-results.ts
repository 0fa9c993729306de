/**
 * Where a unit of work records the results it committed under a key (a
 * task's id), in the transaction of the call's writes: what a task engine
 * reads before it runs a task again, so its writes happen once.
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface CommittedResults {
  /** The result committed under `key`, as JSON text; undefined: none. */
  find(key: string): Promise<string | undefined>;
}

/** The injection token of the app's `CommittedResults`, when a unit of work provides one. */
export const COMMITTED_RESULTS = Symbol('nestops:committed-results');
