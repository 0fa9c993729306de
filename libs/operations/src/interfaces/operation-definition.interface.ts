import type { Type } from '@nestjs/common';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import type { OperationSemantics } from '../operation-semantics.js';
import type {
  Carrier,
  OperationPolicy,
  OperationStability,
  TransactionSetting,
} from './operation-options.interface.js';

/**
 * One operation as discovered at bootstrap: its contract, resolved defaults
 * and JSON Schemas. Immutable.
 *
 * @publicApi
 */
export interface OperationDefinition {
  /** `<resource>.<verb>`, as `@Operation({ id })` gives it. */
  readonly id: string;
  /** The id before its last dot (`orders`). */
  readonly resource: string;
  /** The id after its last dot (`create`), which decides the default semantics. */
  readonly verb: string;
  /** `@Operation({ title })`: the default-language title, if any. */
  readonly title?: string;
  /** `@Operation({ description })`: the default-language description, if any. */
  readonly description?: string;
  /** Carriers it is published on; empty for `internal` operations. */
  readonly expose: readonly Carrier[];
  /** Every permission the caller must hold (`@Operation({ permission })`). */
  readonly permissions: readonly string[];
  /** `@Operation({ policy })`: the app's own check, run after the permissions. */
  readonly policy?: OperationPolicy;
  /** `@Operation({ stability })`, `stable` by default. */
  readonly stability: OperationStability;
  /** What a call does to state, from the verb and `readOnly`. */
  readonly semantics: OperationSemantics;
  /** The input DTO class, given or inferred from the method's first parameter. */
  readonly input?: Type<unknown>;
  /** The output DTO class, when given. */
  readonly output?: Type<unknown>;
  /** The input's JSON Schema, built once from its DTO's class-validator rules. */
  readonly inputSchema?: JsonSchema;
  /** The output's JSON Schema, when an output DTO is given. */
  readonly outputSchema?: JsonSchema;
  /** One transaction per call, or none (`false`). */
  readonly transaction: TransactionSetting;
  /** `ClassName.method` of the provider that implements it. */
  readonly source: string;
}
