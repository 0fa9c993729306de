import { Inject, Injectable } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver.js';
import { DEFAULT_CACHE_TTL } from '../mcp.constants.js';
import type { McpToolResult } from '../tools/mcp-tool.interface.js';
import { type ProtocolEra, SERVER_INFO_META } from './protocol-era.js';

/**
 * A JSON value whose text is already written (a tool list prepared once, a
 * call's result serialised once): a response carrying it as its `result` is
 * written around that text, never serialised again.
 */
export class RawJson {
  private encoded?: Buffer;

  /** `reused`: sent many times (a prepared tool list), so worth its bytes. */
  constructor(
    readonly text: string,
    readonly reused = false,
  ) {}

  /** The text as UTF-8, encoded once (a prepared result is sent many times). */
  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.text, 'utf8'));
  }

  /** For anything that serialises a response by itself: the value read back. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Fields every 2026 result carries. */
export interface ModernResult {
  readonly resultType: 'complete';
  readonly _meta: Readonly<Record<string, unknown>>;
}

/**
 * Writes the results whose JSON depends on the server: the 2026 members of
 * a result, a tool result around the call's own JSON text, the prepared
 * `tools/list` results; `answerText` and `answerParts` write the envelope
 * around them. What it writes once (a tool list, the 2026 `_meta`) it keeps.
 */
@Injectable()
export class McpAnswerWriter {
  /** Prepared `tools/list` results, by era and language. */
  private readonly toolLists = new Map<string, RawJson>();
  /** The `_meta` of every 2026 result, as JSON text. */
  private modernMeta?: string;

  /** @internal Made by Nest's injector. */
  constructor(@Inject(MCP_SETTINGS) private readonly settings: McpSettings) {}

  /** A 2026 result: `resultType: "complete"` and the server's name in `_meta`. */
  modern<T extends object>(result: T): ModernResult & T {
    const { serverName, serverVersion } = this.settings;
    return {
      resultType: 'complete',
      ...result,
      _meta: {
        [SERVER_INFO_META]: { name: serverName, version: serverVersion },
      },
    };
  }

  /**
   * `ttlMs` and `cacheScope` of a cacheable 2026 result: `"public"` only
   * when the answer is the same for every caller, else `"private"`.
   */
  cacheHints(sameForEveryone: boolean) {
    return {
      ttlMs: this.settings.cacheTtl ?? DEFAULT_CACHE_TTL,
      cacheScope: sameForEveryone ? ('public' as const) : ('private' as const),
    };
  }

  /**
   * The `tools/list` result of an era in a language (and, for a list per
   * caller, a set of permissions: `reach`), written once by `build` and
   * then sent as prepared text: only the response's `id` differs per
   * request.
   */
  toolList(
    era: ProtocolEra,
    locale: string,
    reach: string | undefined,
    build: () => object,
  ): RawJson {
    const key =
      reach === undefined ? `${era}:${locale}` : `${era}:${locale}:${reach}`;
    let prepared = this.toolLists.get(key);
    if (!prepared) {
      const result = build();
      prepared = new RawJson(
        JSON.stringify(era === 'legacy' ? result : this.modern(result)),
        true,
      );
      this.toolLists.set(key, prepared);
    }
    return prepared;
  }

  /**
   * A `tools/call` result. A failure is a tool result with its text. A
   * success is written once around the result's JSON text, which is both
   * its text content and its structured content: a 2026 caller takes any
   * JSON value as `structuredContent` and gets the 2026 members; a 2025
   * caller takes only an object.
   */
  toolResult(result: InvocationResult, era: ProtocolEra): RawJson | object {
    if (!result.ok) {
      const failed: McpToolResult = {
        content: [{ type: 'text', text: result.text }],
        isError: true,
      };
      return era === 'modern' ? this.modern(failed) : failed;
    }
    const { value, json } = result;
    const structured =
      era === 'modern'
        ? value !== undefined
        : typeof value === 'object' && value !== null && !Array.isArray(value);
    const members = `"content":[{"type":"text","text":${JSON.stringify(json)}}]${structured ? `,"structuredContent":${json}` : ''}`;
    if (era === 'legacy') {
      return new RawJson(`{${members}}`);
    }
    this.modernMeta ??= JSON.stringify(this.modern({})._meta);
    return new RawJson(
      `{"resultType":"complete",${members},"_meta":${this.modernMeta}}`,
    );
  }
}

/**
 * The JSON text of a response, a batch of them, or a message sent ahead of
 * one: a prepared result's text is written in place, never serialised again.
 */
export function answerText(
  body: JsonRpcResponse | readonly JsonRpcResponse[] | object,
): string {
  return Array.isArray(body)
    ? `[${(body as readonly JsonRpcResponse[]).map(textOfOne).join(',')}]`
    : textOfOne(body);
}

/**
 * A single response whose result is prepared and sent many times (a tool
 * list), as the envelope's text around the result's bytes, which are written
 * as they are, not copied; undefined for any other answer.
 */
export function answerParts(
  body: JsonRpcResponse | readonly JsonRpcResponse[],
): readonly [string, Buffer, string] | undefined {
  if (Array.isArray(body)) {
    return undefined;
  }
  const response = body as JsonRpcResponse;
  return 'result' in response &&
    response.result instanceof RawJson &&
    response.result.reused
    ? [responseHead(response), response.result.bytes, '}']
    : undefined;
}

function textOfOne(message: object): string {
  return 'result' in message && message.result instanceof RawJson
    ? `${responseHead(message as JsonRpcResponse)}${message.result.text}}`
    : JSON.stringify(message);
}

/** A success response's text up to its `result`'s value. */
function responseHead(response: JsonRpcResponse): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`;
}

/** A response's `result` as a value, for in-process readers (the test kit). */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? JSON.parse(result.text) : result;
}
