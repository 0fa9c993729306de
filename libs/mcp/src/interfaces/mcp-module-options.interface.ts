import type { CanActivate, Type } from '@nestjs/common';
import type { McpOAuthOptions } from './mcp-oauth-options.interface.js';
import type { McpTelemetryOptions } from './mcp-telemetry-options.interface.js';
import type { McpAskingOptions } from './mcp-asking-options.interface.js';
import type { McpTasksOptions } from './mcp-tasks-options.interface.js';
import type { McpResumptionOptions } from './mcp-resumption-options.interface.js';

/**
 * Options of `McpModule.forRoot()` / `forRootAsync()`.
 *
 * @publicApi
 */
export interface McpModuleOptions {
  /** `serverInfo.name`. Default: the `name` in the app's `package.json`. */
  serverName?: string;
  /** `serverInfo.version`. Default: this library's version. */
  serverVersion?: string;
  /** Usage notes for the model, sent by `initialize` and `server/discover`; omitted when empty. */
  instructions?: string;
  /** Route of the Streamable HTTP endpoint. Default: `/mcp`. */
  path?: string;
  /** Explicit tool names by operation id, e.g. `{ 'orders.create': 'place_order' }`. */
  tools?: Readonly<Record<string, string>>;
  /**
   * Browser origins allowed to call the endpoint (`https://app.example.com`),
   * or `['*']` for any. A request without `Origin` is always allowed.
   * Default: loopback origins only (`localhost`, `127.0.0.1`, `[::1]`, any port).
   */
  allowedOrigins?: readonly string[];
  /** Largest accepted request body in bytes. Default: 1 MiB. */
  maxBodySize?: number;
  /**
   * The app's authentication guard. When a POST to the endpoint carries an
   * `Authorization` header that this guard rejects, the whole request is
   * answered `401` with a `WWW-Authenticate` challenge before any JSON-RPC
   * handling. Without it, credentials are only checked per call.
   */
  authGuard?: Type<CanActivate>;
  /**
   * Whether a POST without an `Authorization` header is refused. By default
   * anonymous callers are served: they may list tools, and each call that
   * needs a permission answers `SECURITY_DENIED_003`. `true` (or
   * `{ scheme: 'ApiKey' }`) answers them `401` with
   * `WWW-Authenticate: <scheme> realm="<serverName>"` (default scheme
   * `Bearer`) before any JSON-RPC, so a client asks for credentials. Needs
   * `authGuard`; with `oauth`, use `oauth.requireToken`. The command line's
   * stdio sessions are the local user's: each call is judged by its
   * guards with the session's `--authorization`. Default: false.
   */
  requireToken?: boolean | { readonly scheme: string };
  /**
   * The permissions of a principal (`request.user` as the app's
   * authentication sets it), for every check of an operation's
   * `permission` (calls on every carrier, OAuth step-up, per-caller tool
   * lists), e.g. from roles:
   * `(user) => (user as User).roles.flatMap((role) => ROLE_PERMISSIONS[role] ?? [])`.
   * Default: the principal's `permissions` (an array or a set of strings).
   */
  permissionsOf?: (principal: unknown) => Iterable<string>;
  /**
   * The tenant of a call, as the app decides it from the call's headers
   * (e.g. its `X-Tenant-Id`, which the command line's `--tenant` sets):
   * `InvocationContext.tenant`, and the audit events' `tenant`. It may throw
   * an `OperationException` to refuse the call (an ill-formed tenant).
   * Default: none (calls have no tenant).
   */
  tenantOf?: (
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ) => string | undefined;
  /**
   * Per-call limit in milliseconds of every call of the app's operations,
   * whatever its carrier (`tools/call` over HTTP and stdio, the command
   * line's `invoke`, the testing kits), unless the carrier sets its own
   * (`--timeout`). Default: none.
   */
  timeout?: number;
  /**
   * How much input one call may carry, whatever its carrier, checked in
   * one linear pass before any guard, pipe or validator runs; each limit
   * left out keeps its default: `maxDepth`, the deepest nesting of objects
   * and arrays, the outermost level 1 (32); `maxProperties` of one object
   * (1,000); `maxUnknownProperties`, over the whole input, that the DTOs do
   * not declare (1,000); `maxItems` of one array (10,000);
   * `maxStringLength`, in UTF-16 code units (1 MiB).
   */
  inputLimits?: {
    readonly [
      limit in
        | 'maxDepth'
        | 'maxProperties'
        | 'maxUnknownProperties'
        | 'maxItems'
        | 'maxStringLength'
    ]?: number;
  };
  /**
   * How long, in milliseconds, a 2026-07-28 client may keep `tools/list` and
   * `server/discover` answers fresh (their `ttlMs`). The tools are fixed
   * while the app runs, so this bounds how late a client notices a
   * redeployed app's tools. `0` makes every answer stale at once.
   * Default: 300 000 (5 minutes).
   */
  cacheTtl?: number;
  /**
   * The endpoint as an OAuth 2.1 protected resource: RFC 9728 metadata at
   * `GET /.well-known/oauth-protected-resource<path>` (and without the
   * path), `WWW-Authenticate: Bearer resource_metadata="..."` on every
   * `401`, and optionally step-up `403 insufficient_scope`. Needs
   * `authGuard`, or `oauth.jwt` for the library's JWT verifier.
   */
  oauth?: McpOAuthOptions;
  /**
   * `tools/list` shows each caller only the tools of operations whose
   * permissions it holds (its principal as `authGuard` sets it at the
   * endpoint; anonymous callers see the operations that need none).
   * Policies and guards still judge each call; a hidden tool called by
   * name is refused as a visible one would be. Needs `authGuard`. Over
   * stdio, the list is that of the principal `authGuard` makes of the
   * session's `--authorization` (`MCP_AUTHORIZATION`) when the session
   * starts. Default: false.
   */
  toolListPerCaller?: boolean;
  /**
   * What the calls leave behind besides their answers: the audit trail
   * (`audit`), and what OpenTelemetry spans record of the caller. Spans
   * and metrics themselves need no option: they are made whenever the app
   * registers an OpenTelemetry SDK (`@opentelemetry/api` is an optional
   * peer). Default: no audit trail, no principal on spans.
   */
  telemetry?: McpTelemetryOptions;
  /**
   * The Redis that carries a client's answer to a request the server sent
   * it mid-call (elicitation, sampling, roots) when the answer's POST
   * reaches another instance of the app than the one running the call:
   * `'redis://host:6379'`, or `{ url, channelPrefix }` (default prefix
   * `nestops:mcp:answers:`). Each instance listens on a channel of its own
   * and passes on, by publishing, the answers it does not await itself;
   * needs the optional peer `ioredis` (5 or 6). Default: none (an answer is
   * settled only by the instance it reaches).
   */
  redis?: string | { readonly url: string; readonly channelPrefix?: string };
  /**
   * What calls may ask their client mid-call (the user's confirmation, a
   * form, the client's model, its roots): the keys that seal a 2026-07-28
   * question's `requestState`, its expiry, and which operations confirm.
   */
  asking?: McpAskingOptions;
  /**
   * How operations with `@Operation({ task })` run as MCP tasks: the
   * engine (in memory, or BullMQ on `redis`), how long a task is kept, the
   * polling interval suggested to clients.
   */
  tasks?: McpTasksOptions;
  /**
   * How a 2025 call's SSE answer survives its connection: event ids, the
   * call running on, `GET` with `Last-Event-ID` to resume (across
   * instances with `redis`), and optionally closing long connections early
   * (SEP-1699). Default: on, in memory, 5 minutes; `false`: off.
   */
  resumption?: McpResumptionOptions | false;
}
