/**
 * What `McpModule` records of its calls (`telemetry` of its options).
 * OpenTelemetry spans and metrics need no option: they are emitted
 * whenever the app has `@opentelemetry/api` and registers an SDK
 * before it serves its first MCP request; these settings choose what they
 * carry and whether calls leave an audit trail.
 *
 * @publicApi
 */
export interface McpTelemetryOptions {
  /**
   * The audit trail: one `McpAuditEvent` per `tools/call` and per
   * `resources/read` and `prompts/get`, once it is answered. `true`: each event as one JSON line on the Nest logger
   * (context `McpAudit`, level `log`); a sink: given to it instead
   * (`forRootAsync` can build one from the app's providers). Default:
   * false (no events).
   */
  audit?: boolean | McpAuditSink;
  /**
   * Whether audit events carry the call's `arguments` as the caller sent
   * them. Turn on only where arguments hold nothing secret. Default: false.
   */
  auditArguments?: boolean;
  /**
   * Whether spans carry the caller's principal id (`enduser.id`). Audit
   * events always do. Default: false.
   */
  recordPrincipal?: boolean;
  /**
   * The id of a principal (the `request.user` the app's guards set):
   * default its `id` (a string or a number), else its `sub` (a JWT's
   * subject); undefined: anonymous.
   */
  principalId?: (principal: unknown) => string | undefined;
}

/**
 * Where audit events go: the app's log, a table, a queue. `record` is
 * called once per call, after its answer is written; what it throws or
 * rejects with is logged, never given to the caller.
 *
 * @publicApi
 */
export interface McpAuditSink {
  /** Keeps one event. */
  record(event: McpAuditEvent): void | Promise<void>;
}

/**
 * One `tools/call`, `resources/read` or `prompts/get`, as the audit trail keeps it: who called which tool, read which resource or got which prompt,
 * when, for which tenant, and what came of it. It never holds the
 * caller's credentials (no header is copied into it).
 *
 * @publicApi
 */
export interface McpAuditEvent {
  /** When the call came in, ISO 8601 (UTC). */
  readonly time: string;
  /** The caller's principal id (see `principalId`); null: anonymous. */
  readonly principalId: string | null;
  /** The tenant the call ran for, as McpModule's `tenantOf` names it; null: none. */
  readonly tenant: string | null;
  /** The tool named by the call; null when it named none (and for a read or a prompt). */
  readonly tool: string | null;
  /** The URI of a `resources/read`; absent otherwise. */
  readonly resource?: string;
  /** The operation behind the tool or resource; null when it is unknown (and for a prompt). */
  readonly operationId: string | null;
  /** The prompt a `prompts/get` named (null: none); absent for a `tools/call`. */
  readonly prompt?: string | null;
  /**
   * `ok`, the failure code of an `isError` result
   * (`SECURITY_DENIED_004`, `VALIDATION_INVALID_001`,
   * `INTERNAL_TIMEOUT_001`...), or the JSON-RPC error code of a call
   * refused as a protocol error (`-32602`).
   */
  readonly outcome: string;
  /** True when the user confirmed the call before it ran (`@Operation({ confirm })`). */
  readonly confirmed?: true;
  /** From the call coming in to its answer, in milliseconds. */
  readonly durationMs: number;
  /** The call's correlation id, as its logs and failures name it. */
  readonly correlationId: string;
  /** The MCP transport the call came on: `http` (Streamable HTTP) or `stdio`. */
  readonly transport: 'http' | 'stdio';
  /** The MCP protocol version of the call, where the carrier knows it; else null. */
  readonly protocolVersion: string | null;
  /**
   * The task the call created or ran (`@Operation({ task })`): the
   * `tools/call` that created it has the outcome `INTERNAL_TASK_001`, the
   * task's own run the outcome of its call. Absent for other calls.
   */
  readonly taskId?: string;
  /** The call's `arguments`, only under `auditArguments`. */
  readonly arguments?: unknown;
}
