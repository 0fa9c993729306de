import type { Type } from '@nestjs/common';
import type { InvocationContext } from '../invocation/context/invocation-context.interface.js';

/**
 * What calls an operation through `OperationInvoker`: `mcp` (Model Context
 * Protocol tools, over HTTP or stdio) and `cli` (the command line's
 * `invoke`). An app's REST routes run as Nest runs them, not as a carrier.
 *
 * @publicApi
 */
export type Carrier = 'mcp' | 'cli';

/** Lifecycle of an operation (`OperationOptions.stability`). */
export type OperationStability = NonNullable<OperationOptions['stability']>;

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
  policy?: (context: InvocationContext) => boolean | Promise<boolean>;
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
  /**
   * Lifecycle of the operation. `internal` operations are published on no
   * carrier. Default: `stable`.
   */
  stability?: 'stable' | 'experimental' | 'deprecated' | 'internal';
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
   * `isolation` is an SQL isolation level; the database's default when not
   * given.
   */
  transaction?:
    | boolean
    | {
        readonly isolation?:
          | 'READ UNCOMMITTED'
          | 'READ COMMITTED'
          | 'REPEATABLE READ'
          | 'SERIALIZABLE';
      };
}

/** The SQL isolation levels a transaction can ask for. */
export type TransactionIsolation = NonNullable<
  Exclude<OperationOptions['transaction'], boolean | undefined>['isolation']
>;

/** An app-defined authorization check of one call (`OperationOptions.policy`). */
export type OperationPolicy = NonNullable<OperationOptions['policy']>;
