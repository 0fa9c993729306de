import type { InvocationResult } from '@nestops/operations';
import {
  correlationIdOf,
  type InvocationRecord,
} from '@nestops/operations/internal';
import type * as OtelApi from '@opentelemetry/api';
import { isRecord } from '../json-rpc/json-rpc-envelope.js';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import type { McpCall } from '../protocol/mcp-call.js';
import type { McpCallerContext } from '../protocol/mcp-caller.context.js';
import type { McpSettings } from '../options/mcp-settings.js';
import type { McpAuditEvent } from '../interfaces/mcp-telemetry-options.interface.js';
import type { OtelInstruments } from './otel-api.js';

/** `SpanKind.SERVER` and `SpanStatusCode.ERROR`, as the API numbers them. */
const SERVER_SPAN = 1;
const ERROR_STATUS = 2;

/** What a request's telemetry asks of the module's (`McpTelemetry`). */
export interface TelemetryOwner {
  readonly settings: McpSettings;
  /** Where audit events go; undefined: none. */
  readonly sink: unknown;
  /** The operation of the tool `name`, or undefined. */
  operationOf(name: unknown): string | undefined;
  /** The prompt `name` when the app has it, else undefined. */
  promptOf(name: unknown): string | undefined;
  /** The operation read at the resource `uri`, or undefined. */
  operationOfResource(uri: unknown): string | undefined;
  /** The app's tenant of a call refused before it ran. */
  tenantOf(headers: McpCallerContext['headers']): string | undefined;
  /** Gives `event` to the sink. */
  audit(event: McpAuditEvent): void;
}

/**
 * One request as it is observed: its span (made current while it is
 * served, so that what the handler does nests under it), then, once it is
 * answered, its duration, its call count and its audit event.
 */
export class RequestTelemetry {
  private readonly started = performance.now();
  private readonly time = Date.now();
  private readonly tool: string | undefined;
  private readonly operationId: string | undefined;
  /** The prompt a `prompts/get` names, when the app has it. */
  private readonly prompt: string | undefined;
  /** The URI a `resources/read` names. */
  private readonly resource: string | undefined;
  private readonly span: OtelApi.Span | undefined;
  private readonly context: OtelApi.Context | undefined;
  private readonly attributes: OtelApi.Attributes;
  private failureCode?: string;
  private record?: InvocationRecord;

  /** @internal Given to the invoker: what it tells of the call. */
  readonly observe = (record: InvocationRecord): void => {
    this.record = record;
  };

  /** @internal */
  constructor(
    private readonly owner: TelemetryOwner,
    private readonly otel: OtelInstruments | undefined,
    private readonly call: McpCall,
  ) {
    const { request } = call;
    const { caller, kind } = call.transport;
    const isCall = request.method === 'tools/call';
    this.resource =
      request.method === 'resources/read' &&
      typeof request.params.uri === 'string'
        ? request.params.uri
        : undefined;
    this.operationId = isCall
      ? owner.operationOf(request.params.name)
      : owner.operationOfResource(this.resource);
    // Only a known tool names the span and the metrics: the names a caller
    // makes up are not theirs to multiply.
    this.tool =
      this.operationId === undefined
        ? undefined
        : (request.params.name as string);
    this.prompt =
      request.method === 'prompts/get'
        ? owner.promptOf(request.params.name)
        : undefined;
    this.attributes = {
      'mcp.method.name': request.method,
      ...optional('gen_ai.prompt.name', this.prompt),
      ...(this.tool === undefined
        ? {}
        : {
            'gen_ai.tool.name': this.tool,
            'gen_ai.operation.name': 'execute_tool',
          }),
      ...optional('mcp.protocol.version', this.protocolVersion()),
      ...(kind === 'in-process'
        ? {}
        : { 'network.transport': kind === 'http' ? 'tcp' : 'pipe' }),
      ...(kind === 'http' ? { 'network.protocol.name': 'http' } : {}),
    };
    const tracer = otel?.tracer;
    if (otel && tracer) {
      const { api } = otel;
      const active = api.context.active();
      const parent = parentOf(api, active, request.params._meta);
      const ambient = parent === active ? undefined : api.trace.getSpan(active);
      this.span = tracer.startSpan(
        this.tool === undefined && this.prompt === undefined
          ? request.method
          : `${request.method} ${this.tool ?? this.prompt}`,
        {
          kind: SERVER_SPAN,
          attributes: {
            ...this.attributes,
            'jsonrpc.request.id': String(request.id),
            // On the span only: a URI is not a metric's to multiply.
            ...optional('mcp.resource.uri', this.resource),
            ...optional('nestops.operation.id', this.operationId),
            ...optional('client.address', caller.request?.ip),
          },
          links: ambient ? [{ context: ambient.spanContext() }] : undefined,
        },
        parent,
      );
      this.context = api.trace.setSpan(parent, this.span);
    }
  }

  /** @internal Serves the request with its span current. */
  run<T>(serve: () => Promise<T>): Promise<T> {
    return this.otel && this.context
      ? this.otel.api.context.with(this.context, serve)
      : serve();
  }

  /** @internal What the call's operation answered. */
  answered(result: InvocationResult): void {
    if (!result.ok) {
      this.failureCode = result.failure.code;
    }
  }

  /** @internal Records the request, answered with `response`. */
  end(response: JsonRpcResponse | undefined): void {
    const seconds = (performance.now() - this.started) / 1000;
    const error = response && 'error' in response ? response.error : undefined;
    const rpcCode = error ? String(error.code) : undefined;
    // The catalogue's failure code: the operation's for an `isError`
    // result, the protocol error's `error.data.code` for a protocol error.
    // A fixed list, more telling than the conventions' `tool_error` or
    // `-32602` (which stays in `rpc.response.status_code`).
    // A read's or a prompt's own failure, though answered as a protocol error.
    const errorType = this.failureCode ?? error?.data.code;
    const version =
      this.call.request.method === 'initialize' &&
      response &&
      'result' in response
        ? (response.result as { protocolVersion?: string }).protocolVersion
        : undefined;
    const outcome = {
      ...optional('error.type', errorType),
      ...optional('rpc.response.status_code', rpcCode),
      ...optional('mcp.protocol.version', version),
    };
    const principalId = this.principalId();
    const { span } = this;
    if (span) {
      span.setAttributes(outcome);
      if (
        principalId !== undefined &&
        this.owner.settings.telemetry.recordPrincipal
      ) {
        span.setAttribute('enduser.id', principalId);
      }
      if (errorType) {
        span.setStatus({
          code: ERROR_STATUS,
          message: error?.message ?? this.failureCode,
        });
      }
      span.end();
    }
    const attributes = { ...this.attributes, ...outcome };
    this.otel?.duration?.record(seconds, attributes);
    const { method } = this.call.request;
    if (
      method !== 'tools/call' &&
      method !== 'resources/read' &&
      method !== 'prompts/get'
    ) {
      return;
    }
    const result = errorType ?? 'ok';
    if (method === 'tools/call') {
      this.otel?.calls?.add(1, {
        ...optional('gen_ai.tool.name', this.tool),
        'nestops.call.outcome': result,
      });
    }
    if (this.owner.sink) {
      this.owner.audit(this.event(result, seconds, principalId));
    }
  }

  private event(
    outcome: string,
    seconds: number,
    principalId: string | undefined,
  ): McpAuditEvent {
    const { params } = this.call.request;
    const { headers } = this.call.transport.caller;
    return {
      time: new Date(this.time).toISOString(),
      principalId: principalId ?? null,
      tenant:
        (this.record ? this.record.tenant : this.owner.tenantOf(headers)) ??
        null,
      tool:
        this.call.request.method === 'tools/call' &&
        typeof params.name === 'string'
          ? params.name
          : null,
      ...(this.resource === undefined ? {} : { resource: this.resource }),
      operationId: this.operationId ?? null,
      ...(this.call.request.method === 'prompts/get'
        ? { prompt: typeof params.name === 'string' ? params.name : null }
        : {}),
      outcome,
      ...(this.record?.confirmed ? { confirmed: true } : {}),
      durationMs: Math.round(seconds * 1e6) / 1e3,
      correlationId: this.record?.correlationId ?? correlationIdOf(headers),
      transport: this.call.transport.kind === 'stdio' ? 'stdio' : 'http',
      protocolVersion: this.protocolVersion() ?? null,
      ...(this.owner.settings.telemetry.auditArguments &&
      this.resource === undefined
        ? { arguments: params.arguments }
        : {}),
    };
  }

  /** The version the call is served under (see `McpCall.protocolVersion`). */
  private protocolVersion(): string | undefined {
    return this.call.protocolVersion;
  }

  /** The call's principal: its guards', else the endpoint's. */
  private principal(): unknown {
    return this.record?.principal ?? this.call.transport.caller.principal;
  }

  /** The id of the call's principal. */
  private principalId(): string | undefined {
    const principal = this.principal();
    return principal === undefined
      ? undefined
      : this.owner.settings.telemetry.principalId(principal);
  }
}

/**
 * The parent of a request's span: the trace context its `params._meta`
 * carries (`traceparent`, `tracestate`, read by the app's propagator), else
 * the active context (the HTTP request's span, when the app instruments
 * HTTP).
 */
function parentOf(
  api: typeof OtelApi,
  active: OtelApi.Context,
  meta: unknown,
): OtelApi.Context {
  if (!isRecord(meta) || typeof meta.traceparent !== 'string') {
    return active;
  }
  const extracted = api.propagation.extract(active, meta);
  const remote = api.trace.getSpanContext(extracted);
  return remote && remote !== api.trace.getSpanContext(active)
    ? extracted
    : active;
}

/** `{ [key]: value }` when there is a value, else nothing. */
function optional(
  key: string,
  value: string | undefined,
): Record<string, string> {
  return value === undefined ? {} : { [key]: value };
}
