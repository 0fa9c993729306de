// The types of an operation's contract, which refer to each other: its options,
// its definition, and the context of one call (its policy reads it).
import type { Type } from '@nestjs/common';
import type { JsonSchema } from '../schema/json-schema.interface.js';
import type {
  ClientCapability,
  ClientQuestions,
  OperationAsks,
} from '../asking/client-questions.js';
import type {
  OperationResource,
  OperationResourceOptions,
} from './operation-resource.interface.js';

/**
 * What calls an operation through `OperationInvoker`: `mcp` (Model Context
 * Protocol tools, over HTTP or stdio) and `cli` (the command line's
 * `invoke`). An app's REST routes run as Nest runs them, not as a carrier.
 *
 * @publicApi
 */
export type Carrier = 'mcp' | 'cli';

/**
 * How an operation runs as a task (`OperationOptions.task`).
 *
 * @publicApi
 */
export type OperationTaskSupport = 'optional' | 'required';

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
   * Also publishes a read-only operation as an MCP resource read at this
   * URI: a fixed one (`orders://recent`) for an operation with no required
   * input, or a URI template (`orders://{id}`, RFC 6570 level 1) whose
   * variables are input properties. As an object, `mimeType` is the
   * content's type (default: `application/json`, the result as JSON text).
   */
  resource?: string | OperationResourceOptions;
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
   * Asks the user to confirm each call before the method runs, after the
   * guards and the input's validation: the method runs only on `accept`;
   * `decline` or `cancel` fails the call with `BUSINESS_DECLINED_001` or
   * `_002`, nothing run. The question is the catalogue's `<id>.confirm`
   * with the input's properties as arguments. Default: the app's
   * `confirm` setting (McpModule's: none, or every destructive operation).
   */
  confirm?: boolean;
  /**
   * The DTO classes the method asks the user to fill in with
   * `context.elicit()`: each is checked at startup as a form MCP can ask
   * for (a flat object of strings, numbers, booleans and enums).
   */
  elicits?: readonly Type<unknown>[];
  /**
   * What the client must be able to answer for a call to run at all: a
   * client that did not declare it is refused before anything runs (in
   * 2026-07-28, MCP's `-32021` naming what is missing). Without it, a
   * question the client cannot answer fails the call with
   * `BUSINESS_CLIENT_001` where it is asked.
   */
  requires?: readonly ClientCapability[];
  /**
   * Whether a call may run as a task (MCP's tasks extension): `optional`,
   * as a task for a client that negotiated tasks and as a plain call for
   * others; `required`, refused to a 2026-07-28 client without tasks. The
   * task starts once the guards, the input's validation and any
   * confirmation passed. Default: never a task.
   */
  task?: OperationTaskSupport;
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
  /** `@Operation({ resource })`: where it is also read as a resource. */
  readonly asResource?: OperationResource;
  /** The input DTO class, given or inferred from the method's first parameter. */
  readonly input?: Type<unknown>;
  /** The output DTO class, when given. */
  readonly output?: Type<unknown>;
  /** The input's JSON Schema, built once from its DTO's class-validator rules. */
  readonly inputSchema?: JsonSchema;
  /** The output's JSON Schema, when an output DTO is given. */
  readonly outputSchema?: JsonSchema;
  /** What it asks its client, when it says (`confirm`, `elicits`, `requires`). */
  readonly asks?: OperationAsks;
  /** Whether a call may run as a task; undefined: never. */
  readonly task?: OperationTaskSupport;
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

/**
 * Everything known about one call of an operation. Handlers receive it as
 * their second argument; guards and interceptors read it with
 * `getInvocationContext(executionContext)`.
 *
 * It is an interface on purpose: a parameter typed with it reflects as
 * `Object`, so validation pipes leave it alone.
 *
 * @publicApi
 */
export interface InvocationContext extends ClientQuestions {
  /** The carrier the call came in on. */
  readonly carrier: Carrier;
  /** The MCP tool name or CLI command that was called. */
  readonly target: string;
  /** The operation being called. */
  readonly operation: OperationDefinition;
  /** What the app's authentication set as `request.user`; undefined when anonymous. */
  readonly principal: unknown;
  /**
   * The tenant the call runs for, as the app's `tenantOf` reads it from the
   * call's headers (McpModule's `tenantOf` option); undefined: none.
   */
  readonly tenant: string | undefined;
  /** From `X-Correlation-Id`, generated when absent. */
  readonly correlationId: string;
  /** The caller's preferred locale (BCP 47), e.g. `en-US`. */
  readonly locale: string;
  /** When the call is given up, if a timeout applies. */
  readonly deadline: Date | undefined;
  /** The task this call runs (`@Operation({ task })`); undefined: not a task's run. */
  readonly taskId: string | undefined;
  /** Aborted when the call times out. */
  readonly signal: AbortSignal;
  /**
   * Tells the caller how far the call has come: `progress` (increasing; a
   * value not above the last one is dropped) out of `total` when known,
   * with an optional `message`. Over MCP it is a `notifications/progress`
   * to a client that sent a progress token; elsewhere (no token, `invoke`,
   * REST) it does nothing.
   */
  reportProgress(progress: number, total?: number, message?: string): void;
  /**
   * A log message for the caller: over MCP a `notifications/message` when
   * the client asked for `level` or a lower one; otherwise the app's
   * logger writes it (under the operation's id). Never throws. The levels,
   * lowest first, are MCP's: the RFC 5424 syslog severities.
   */
  log(
    level:
      | 'debug'
      | 'info'
      | 'notice'
      | 'warning'
      | 'error'
      | 'critical'
      | 'alert'
      | 'emergency',
    message: string,
    data?: unknown,
  ): void;
}
