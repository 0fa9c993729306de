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
  readonly id: string;
  readonly resource: string;
  readonly verb: string;
  /** `@Operation({ title })`: the default-language title, if any. */
  readonly title?: string;
  /** `@Operation({ description })`: the default-language description, if any. */
  readonly description?: string;
  /** Carriers it is published on; empty for `internal` operations. */
  readonly expose: readonly Carrier[];
  readonly permissions: readonly string[];
  readonly policy?: OperationPolicy;
  readonly stability: OperationStability;
  readonly semantics: OperationSemantics;
  readonly input?: Type<unknown>;
  readonly output?: Type<unknown>;
  readonly inputSchema?: JsonSchema;
  readonly outputSchema?: JsonSchema;
  /** One transaction per call, or none (`false`). */
  readonly transaction: TransactionSetting;
  /** `ClassName.method` of the provider that implements it. */
  readonly source: string;
}
