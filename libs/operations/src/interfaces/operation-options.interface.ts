import type { Type } from '@nestjs/common';
import type { InvocationContext } from '../invocation/invocation-context.interface';

/**
 * A carrier publishes operations to callers: `http` (REST routes), `mcp`
 * (Model Context Protocol tools) and `cli` (the command-line host).
 *
 * @publicApi
 */
export type Carrier = 'http' | 'mcp' | 'cli';

/**
 * Lifecycle of an operation. `internal` operations are published on no
 * carrier.
 *
 * @publicApi
 */
export type OperationStability =
  'stable' | 'experimental' | 'deprecated' | 'internal';

/**
 * What `@Operation()` declares about one provider method.
 *
 * @publicApi
 */
export interface OperationOptions {
  /**
   * `<resource>.<verb>`, e.g. `orders.create` or `tenant-members.list`. The
   * verb is the part after the last dot and decides the default semantics
   * (`get` and `list` read, `create`, `update`, `delete`).
   */
  id: string;
  /** Carriers the operation is published on. Default: all. */
  expose?: readonly Carrier[];
  /** Permission(s) the caller must hold; all of them are required. */
  permission?: string | readonly string[];
  /**
   * An app-defined check run after the permissions; returning false fails
   * the call with `SECURITY_DENIED_002`.
   */
  policy?: OperationPolicy;
  /** Marks a custom verb as read-only (`orders.search`). */
  readOnly?: boolean;
  /** Default: `stable`. */
  stability?: OperationStability;
  /** Request DTO class; inferred from the first parameter's type when omitted. */
  input?: Type<unknown>;
  /** Response DTO class; its schema is published as the output schema. */
  output?: Type<unknown>;
}

/**
 * An app-defined authorization check of one call, e.g. "only the order's
 * owner may cancel it".
 *
 * @publicApi
 */
export type OperationPolicy = (
  context: InvocationContext,
) => boolean | Promise<boolean>;
