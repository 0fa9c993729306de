import type { Carrier } from './interfaces/operation-contract.js';

/** Metadata key under which `@Operation()` stores its options. */
export const OPERATION_METADATA = 'operations:operation';
/** Every carrier, the default of `expose`. */
export const ALL_CARRIERS: readonly Carrier[] = Object.freeze(['mcp', 'cli']);
/** Verbs that read without changing anything. */
export const READ_ONLY_VERBS: ReadonlySet<string> = new Set(['get', 'list']);
