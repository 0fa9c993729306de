/** A group of critical files and the tests that exercise them. */
export interface MutationGroup {
  readonly mutate: readonly string[];
  readonly tests: readonly string[];
}
export declare const MUTATION_GROUPS: Readonly<Record<string, MutationGroup>>;
/** The group `MUTATION_GROUP` names, or undefined for the whole set. */
export declare function mutationGroup(name?: string): MutationGroup | undefined;
