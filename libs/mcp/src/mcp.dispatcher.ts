import { Inject, Injectable } from '@nestjs/common';
import {
  type InvocationResult,
  OperationInvoker,
  OperationMessages,
} from '@nestops/operations';
import { idOf, readEnvelope } from './json-rpc/json-rpc-envelope.js';
import type {
  JsonRpcRequest,
  JsonRpcResponse,
} from './json-rpc/json-rpc.types.js';
import { McpProtocolError } from './json-rpc/mcp-protocol.error.js';
import { RawJson } from './json-rpc/raw-json.js';
import {
  protocolEraOf,
  readRequestMeta,
  SERVER_INFO_META,
} from './json-rpc/protocol-era.js';
import { MCP_SETTINGS, type McpSettings } from './mcp-options.resolver.js';
import {
  DEFAULT_CACHE_TTL,
  LATEST_PROTOCOL_VERSION,
  SPOKEN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './mcp.constants.js';
import { McpToolCatalogue } from './tools/mcp-tool.catalogue.js';
import type { McpToolResult } from './tools/mcp-tool.interface.js';

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

/**
 * What a carrier adds to the era rules from outside the message: HTTP's
 * headers. stdio has none and passes nothing.
 */
export interface McpCarrierRules {
  /**
   * The protocol version the carrier names outside the body (HTTP's
   * `MCP-Protocol-Version`): a 2026 version here makes the message a 2026
   * request even when its `_meta` lacks the version.
   */
  readonly protocolVersion?: string;
  /**
   * Checks a 2026 request, once its `_meta` is valid and before its method
   * runs, against the carrier's own copy of its fields (HTTP's
   * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers); throws an
   * `McpProtocolError` to refuse it.
   */
  readonly check?: (request: JsonRpcRequest, protocolVersion: string) => void;
}

type Params = Readonly<Record<string, unknown>>;

/** Fields every 2026 result carries. */
interface ModernResult {
  readonly resultType: 'complete';
  readonly _meta: Readonly<Record<string, unknown>>;
}

/**
 * The carrier-agnostic MCP server: answers one JSON-RPC message, knowing
 * nothing of HTTP or stdio. Returns undefined when no answer is due
 * (notifications and client responses).
 *
 * A request is served in the era its body names: with
 * `io.modelcontextprotocol/protocolVersion` in `params._meta` it is a
 * stateless 2026-07-28 request (`server/discover`, `tools/list`,
 * `tools/call`; every result with `resultType: "complete"`), otherwise a
 * 2025 one, answered exactly as before that revision existed.
 */
@Injectable()
export class McpDispatcher {
  /** Prepared `tools/list` results, by era and language. */
  private readonly toolLists = new Map<string, RawJson>();
  /** The `_meta` of every 2026 result, as JSON text. */
  private modernMeta?: string;

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly catalogue: McpToolCatalogue,
    private readonly invoker: OperationInvoker,
    private readonly messages: OperationMessages,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /**
   * Answers one parsed message (a request, a notification or a response)
   * with the era rules of its body; undefined when no answer is due.
   */
  dispatch(
    message: unknown,
    caller: McpCallerContext,
  ): Promise<JsonRpcResponse | undefined>;
  /**
   * @internal `carrier` holds what the carrier knows outside the message
   * (HTTP's headers); a carrier without any (stdio) leaves it out and gets
   * the same era rules from the body alone.
   */
  dispatch(
    message: unknown,
    caller: McpCallerContext,
    carrier?: McpCarrierRules,
  ): Promise<JsonRpcResponse | undefined>;
  async dispatch(
    message: unknown,
    caller: McpCallerContext,
    carrier: McpCarrierRules = {},
  ): Promise<JsonRpcResponse | undefined> {
    try {
      const incoming = readEnvelope(message);
      if (incoming.kind !== 'request') {
        return undefined;
      }
      const { request } = incoming;
      const result =
        protocolEraOf(message, carrier.protocolVersion) === 'modern'
          ? await this.answerModern(request, caller, carrier)
          : await this.answer(request, caller);
      return { jsonrpc: '2.0', id: request.id, result };
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
        return this.toolList('legacy', this.localeOf(caller));
      case 'tools/call':
        return this.callTool(params, caller, 'legacy');
      default:
        throw McpProtocolError.methodNotFound(request.method);
    }
  }

  /**
   * A 2026 request: its `_meta` (`-32602`, `-32022`), then the carrier's
   * checks (`-32020`), then its method (`-32601` for any other, `initialize`
   * and `ping` included).
   */
  private async answerModern(
    request: JsonRpcRequest,
    caller: McpCallerContext,
    carrier: McpCarrierRules,
  ): Promise<unknown> {
    const params: Params = request.params ?? {};
    const meta = readRequestMeta(params);
    carrier.check?.(request, meta.protocolVersion);
    switch (request.method) {
      case 'server/discover':
        return this.discover();
      case 'tools/list':
        return this.toolList('modern', this.localeOf(caller));
      case 'tools/call':
        return this.callTool(params, caller, 'modern');
      default:
        throw McpProtocolError.methodNotFound(request.method);
    }
  }

  /**
   * The `tools/list` result of an era in a language, written once and then
   * sent as prepared text: only the response's `id` differs per request.
   */
  private toolList(era: 'legacy' | 'modern', locale: string): RawJson {
    const key = `${era}:${locale}`;
    let prepared = this.toolLists.get(key);
    if (!prepared) {
      prepared = new RawJson(
        JSON.stringify(
          era === 'legacy'
            ? { tools: this.catalogue.tools(locale) }
            : this.modern({
                tools: this.catalogue.toolsByName(locale),
                ...this.cacheHints(this.catalogue.isSameInEveryLanguage()),
              }),
        ),
        true,
      );
      this.toolLists.set(key, prepared);
    }
    return prepared;
  }

  private discover(): ModernResult {
    const { instructions } = this.settings;
    return this.modern({
      supportedVersions: SPOKEN_PROTOCOL_VERSIONS,
      capabilities: { tools: { listChanged: false } },
      ...(instructions ? { instructions } : {}),
      // Nothing in it depends on who asks.
      ...this.cacheHints(true),
    });
  }

  /**
   * `ttlMs` and `cacheScope` of a cacheable result: `"public"` only when the
   * answer is the same for every caller, else `"private"`.
   */
  private cacheHints(sameForEveryone: boolean) {
    return {
      ttlMs: this.settings.cacheTtl ?? DEFAULT_CACHE_TTL,
      cacheScope: sameForEveryone ? ('public' as const) : ('private' as const),
    };
  }

  /** A 2026 result: `resultType: "complete"` and the server's name in `_meta`. */
  private modern<T extends object>(result: T): ModernResult & T {
    const { serverName, serverVersion } = this.settings;
    return {
      resultType: 'complete',
      ...result,
      _meta: {
        [SERVER_INFO_META]: { name: serverName, version: serverVersion },
      },
    };
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

  /** The language of what the dispatcher renders itself: the tool list. */
  private localeOf(caller: McpCallerContext): string {
    return this.messages.callerLocale(caller.headers, caller.locale);
  }

  /**
   * A `tools/call` through the one invocation API. A failure is a tool
   * result with its text; a success is written once around the result's
   * JSON text, which is both its text content and its structured content.
   */
  private async callTool(
    params: Params,
    caller: McpCallerContext,
    era: 'legacy' | 'modern',
  ): Promise<unknown> {
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
    const result = await this.invoker.invoke(entry.operation.id, {
      carrier: 'mcp',
      target: name,
      headers: caller.headers,
      locale: caller.locale,
      input,
      timeout: caller.timeout,
    });
    if (!result.ok) {
      const failed: McpToolResult = {
        content: [{ type: 'text', text: result.text }],
        isError: true,
      };
      return era === 'modern' ? this.modern(failed) : failed;
    }
    return new RawJson(this.toolResultText(result, era));
  }

  /**
   * A successful tool result's JSON text, around the result's own text: a
   * 2026 caller takes any JSON value as `structuredContent` and gets the
   * 2026 members; a 2025 caller takes only an object.
   */
  private toolResultText(
    { value, json }: Extract<InvocationResult, { ok: true }>,
    era: 'legacy' | 'modern',
  ): string {
    const structured =
      era === 'modern'
        ? value !== undefined
        : typeof value === 'object' && value !== null && !Array.isArray(value);
    const members = `"content":[{"type":"text","text":${JSON.stringify(json)}}]${structured ? `,"structuredContent":${json}` : ''}`;
    if (era === 'legacy') {
      return `{${members}}`;
    }
    this.modernMeta ??= JSON.stringify(this.modern({})._meta);
    return `{"resultType":"complete",${members},"_meta":${this.modernMeta}}`;
  }
}
