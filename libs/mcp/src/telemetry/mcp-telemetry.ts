import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpCall } from '../protocol/mcp-call.js';
import type { McpCallerContext } from '../protocol/mcp-caller.context.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import type {
  McpAuditEvent,
  McpAuditSink,
} from '../interfaces/mcp-telemetry-options.interface.js';
import { McpResourceCatalogue } from '../resources/mcp-resource.catalogue.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import { findOtel, type OtelInstruments } from './otel-api.js';
import { RequestTelemetry } from './request-telemetry.js';

export { RequestTelemetry } from './request-telemetry.js';

/** The methods that get a span and a duration. */
const TRACED_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** The methods that leave an audit event: a call, a read, a prompt. */
const AUDITED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'resources/read',
  'prompts/get',
]);

/**
 * What is recorded of the calls: spans and metrics when the app registered
 * an OpenTelemetry SDK, audit events when `telemetry.audit` is set. Where
 * neither is the case, `begin` is undefined for every request and the
 * request is served exactly as without telemetry.
 */
@Injectable()
export class McpTelemetry {
  /** undefined: not looked up yet (the first request does); null: none. */
  private otel?: OtelInstruments | null;
  private readonly logger = new Logger('McpAudit');
  /** @internal */
  readonly sink: McpAuditSink | undefined;

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(MCP_SETTINGS) readonly settings: McpSettings,
    private readonly catalogue: McpToolCatalogue,
    private readonly prompts: McpPromptCatalogue,
    private readonly resources: McpResourceCatalogue,
  ) {
    const { audit } = settings.telemetry;
    this.sink =
      audit === true
        ? { record: (event) => this.logger.log(JSON.stringify(event)) }
        : audit;
  }

  /**
   * @internal What one request is observed with, or undefined when nothing
   * observes it.
   */
  begin(call: McpCall): RequestTelemetry | undefined {
    const { request } = call;
    const otel =
      this.otel === undefined ? (this.otel = findOtel() ?? null) : this.otel;
    const observed =
      otel === null
        ? this.sink !== undefined && AUDITED_METHODS.has(request.method)
        : TRACED_METHODS.has(request.method);
    return observed
      ? new RequestTelemetry(this, otel ?? undefined, call)
      : undefined;
  }

  /**
   * @internal The app's tenant of a call refused before it ran, from its
   * headers; undefined when it has none or they name none it accepts.
   */
  tenantOf(headers: McpCallerContext['headers']): string | undefined {
    try {
      return this.settings.tenantOf?.(headers);
    } catch {
      return undefined;
    }
  }

  /** @internal The operation of the tool `name`, or undefined. */
  operationOf(name: unknown): string | undefined {
    return typeof name === 'string'
      ? this.catalogue.find(name)?.operation.id
      : undefined;
  }

  /** @internal The prompt `name` when the app has it, else undefined. */
  promptOf(name: unknown): string | undefined {
    return typeof name === 'string' && this.prompts.find(name)
      ? name
      : undefined;
  }

  /** @internal The operation read at the resource `uri`, or undefined. */
  operationOfResource(uri: unknown): string | undefined {
    return typeof uri === 'string'
      ? this.resources.find(uri)?.entry.operation.id
      : undefined;
  }

  /** @internal Gives `event` to the sink; what it throws is only logged. */
  audit(event: McpAuditEvent): void {
    const failed = (error: unknown) =>
      this.logger.error(
        `The audit sink failed to record a call (correlation id ${event.correlationId})`,
        error instanceof Error ? error.stack : String(error),
      );
    try {
      Promise.resolve(this.sink?.record(event)).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}
