import { Inject, Injectable } from '@nestjs/common';
import { OperationInvoker, OperationMessages } from '@nestops/operations';
import { idOf, readEnvelope } from './json-rpc/json-rpc-envelope';
import type {
  JsonRpcRequest,
  JsonRpcResponse,
} from './json-rpc/json-rpc.types';
import { McpProtocolError } from './json-rpc/mcp-protocol.error';
import { MCP_SETTINGS, type McpSettings } from './mcp-options.resolver';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './mcp.constants';
import { McpToolCatalogue } from './tools/mcp-tool.catalogue';
import type { McpToolResult } from './tools/mcp-tool.interface';

/** What a transport knows about the caller of one message. */
export interface McpCallerContext {
  /** The carrier's headers: credentials, locale, tenant, correlation id. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /**
   * The caller's language preference where the carrier has no
   * `Accept-Language` header (stdio's `--locale`).
   */
  readonly locale?: string;
  /** Per-call limit in milliseconds for this caller, instead of the `timeout` option. */
  readonly timeout?: number;
}

type Params = Readonly<Record<string, unknown>>;

/**
 * The carrier-agnostic MCP server: answers one JSON-RPC message, knowing
 * nothing of HTTP or stdio. Returns undefined when no answer is due
 * (notifications and client responses).
 */
@Injectable()
export class McpDispatcher {
  constructor(
    private readonly catalogue: McpToolCatalogue,
    private readonly invoker: OperationInvoker,
    private readonly messages: OperationMessages,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async dispatch(
    message: unknown,
    caller: McpCallerContext,
  ): Promise<JsonRpcResponse | undefined> {
    try {
      const incoming = readEnvelope(message);
      if (incoming.kind !== 'request') {
        return undefined;
      }
      const { id } = incoming.request;
      return {
        jsonrpc: '2.0',
        id,
        result: await this.answer(incoming.request, caller),
      };
    } catch (error) {
      if (error instanceof McpProtocolError) {
        return error.toResponse(idOf(message));
      }
      throw error;
    }
  }

  private answer(request: JsonRpcRequest, caller: McpCallerContext): unknown {
    const params: Params = request.params ?? {};
    switch (request.method) {
      case 'initialize':
        return this.initialize(params);
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: this.catalogue.tools(this.localeOf(caller)) };
      case 'tools/call':
        return this.callTool(params, caller);
      default:
        throw McpProtocolError.methodNotFound(request.method);
    }
  }

  /** The caller's language: one of the application's. */
  private localeOf(caller: McpCallerContext): string {
    const header = caller.headers['accept-language'];
    return this.messages.localeOf(
      caller.locale ?? (Array.isArray(header) ? header.join(', ') : header),
    );
  }

  private initialize(params: Params): unknown {
    const requested = params.protocolVersion;
    const { serverName, serverVersion, instructions } = this.settings;
    return {
      protocolVersion:
        typeof requested === 'string' &&
        SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
          ? requested
          : LATEST_PROTOCOL_VERSION,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: serverName, version: serverVersion },
      ...(instructions ? { instructions } : {}),
    };
  }

  private async callTool(
    params: Params,
    caller: McpCallerContext,
  ): Promise<McpToolResult> {
    const name = params.name;
    if (typeof name !== 'string') {
      throw McpProtocolError.missingToolName();
    }
    const entry = this.catalogue.find(name);
    if (!entry) {
      throw McpProtocolError.unknownTool(name);
    }
    const input = params.arguments === undefined ? {} : params.arguments;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw McpProtocolError.argumentsNotObject();
    }
    const locale = this.localeOf(caller);
    const result = await this.invoker.invoke(entry.operation.id, {
      carrier: 'mcp',
      target: name,
      headers: caller.headers,
      locale: caller.locale,
      input,
      timeout: caller.timeout ?? this.settings.timeout,
      inputLimits: this.settings.inputLimits,
    });
    if (!result.ok) {
      return {
        content: [
          {
            type: 'text',
            text: this.messages.describe(result.failure, locale),
          },
        ],
        isError: true,
      };
    }
    const { value } = result;
    return {
      content: [{ type: 'text', text: JSON.stringify(value) }],
      ...(typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { structuredContent: value as Record<string, unknown> }
        : {}),
    };
  }
}
