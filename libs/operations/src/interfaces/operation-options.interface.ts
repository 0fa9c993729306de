import type { Type } from '@nestjs/common';
import type { InvocationContext } from '../invocation/context/invocation-context.interface.js';

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
  /**
   * A short human-readable name (an MCP tool's `title`), in the
   * application's default language. The message catalogue's
   * `<operation id>.title`, where present, wins in each language.
   */
  title?: string;
  /**
   * What the operation does, what it needs and what it returns (an MCP
   * tool's `description`, which models choose tools by), in the
   * application's default language. The message catalogue's
   * `<operation id>.description`, where present, wins in each language.
   */
  description?: string;
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
  /**
   * Whether a call may destroy or irreversibly change existing state
   * (MCP's `destructiveHint`), overriding what the verb implies (`delete`
   * and custom verbs: true; `create`, `update`: false). `true` with a
   * read-only operation stops startup. It changes no transaction.
   */
  destructive?: boolean;
  /**
   * Whether calling twice with the same input has the effect of calling
   * once (MCP's `idempotentHint`), overriding what the verb implies
   * (`update`, `delete` and read-only: true; others: false).
   */
  idempotent?: boolean;
  /**
   * Whether the operation reaches an open world outside the app (the web,
   * other companies' systems) rather than the app's own data (MCP's
   * `openWorldHint`). Published only when stated.
   */
  openWorld?: boolean;
  /** Default: `stable`. */
  stability?: OperationStability;
  /**
   * Request DTO class; inferred from the first parameter's type when
   * omitted, which must then be a class. `null`: the operation takes no
   * input (as a method without parameters does).
   */
  input?: Type<unknown> | null;
  /** Response DTO class; its schema is published as the output schema. */
  output?: Type<unknown>;
  /**
   * The call's unit of work, for a transaction interceptor such as
   * `@nestops/typeorm`'s: `true` runs each call in one transaction, `false`
   * in none, `{ isolation }` in one at that isolation level. Default: a
   * transaction for operations that change state, none for read-only ones.
   */
  transaction?: boolean | { readonly isolation?: TransactionIsolation };
}

/**
 * SQL isolation levels a transaction can ask for; the database's default
 * when not given.
 *
 * @publicApi
 */
export type TransactionIsolation =
  'READ UNCOMMITTED' | 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * The unit of work of an operation's calls, resolved from `transaction`:
 * `false` for none, otherwise one transaction per call.
 *
 * @publicApi
 */
export type TransactionSetting =
  false | { readonly isolation?: TransactionIsolation };

/**
 * An app-defined authorization check of one call, e.g. "only the order's
 * owner may cancel it".
 *
 * @publicApi
 */
export type OperationPolicy = (
  context: InvocationContext,
) => boolean | Promise<boolean>;
