import type { Type } from '@nestjs/common';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import type {
  Carrier,
  OperationOptions,
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
  readonly policy?: OperationOptions['policy'];
  /** `@Operation({ stability })`, `stable` by default. */
  readonly stability: NonNullable<OperationOptions['stability']>;
  /**
   * What a call does to the state it touches, derived from the verb and
   * `readOnly` (and stated `destructive`, `idempotent`, `openWorld`).
   * Carriers map it onto their own vocabulary (MCP tool annotations).
   */
  readonly semantics: {
    /** Reads only; calling it changes nothing. */
    readonly readOnly: boolean;
    /** May destroy or irreversibly change existing state. */
    readonly destructive: boolean;
    /** Calling it twice with the same input has the effect of calling it once. */
    readonly idempotent: boolean;
    /** Reaches an open world outside the app; undefined when not stated. */
    readonly openWorld?: boolean;
  };
  /** The input DTO class, given or inferred from the method's first parameter. */
  readonly input?: Type<unknown>;
  /** The output DTO class, when given. */
  readonly output?: Type<unknown>;
  /** The input's JSON Schema, built once from its DTO's class-validator rules. */
  readonly inputSchema?: JsonSchema;
  /** The output's JSON Schema, when an output DTO is given. */
  readonly outputSchema?: JsonSchema;
  /** One transaction per call, or none (`false`). */
  readonly transaction:
    false | Exclude<OperationOptions['transaction'], boolean | undefined>;
  /** `ClassName.method` of the provider that implements it. */
  readonly source: string;
}

/**
 * The unit of work of an operation's calls, resolved from `transaction`:
 * `false` for none, otherwise one transaction per call.
 */
export type TransactionSetting = OperationDefinition['transaction'];
