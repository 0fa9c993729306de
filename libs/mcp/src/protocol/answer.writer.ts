import { Inject, Injectable } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { contentJson } from '../content/content-json.js';
import { McpResult } from '../content/mcp-result.js';
import type { McpToolResult } from '../tools/mcp-tool.interface.js';
import { RawJson } from './answer-text.js';
import { cacheHints, type ModernResult, modernResult } from './greeting.js';
import type { ProtocolRevision } from './protocol-revision.js';

/**
 * Writes the results whose JSON depends on the server: the 2026 members of
 * a result, a tool result around the call's own JSON text, the prepared
 * `tools/list` results; `answerText` and `answerParts` write the envelope
 * around them. What it writes once (a tool list, the 2026 `_meta`) it keeps.
 */
@Injectable()
export class McpAnswerWriter {
  /** Prepared `tools/list` results, by revision and language. */
  private readonly toolLists = new Map<string, RawJson>();
  /** The `_meta` of every 2026 result, as JSON text. */
  private modernMeta?: string;

  /** @internal Made by Nest's injector. */
  constructor(@Inject(MCP_SETTINGS) private readonly settings: McpSettings) {}

  /** A 2026 result: `resultType: "complete"` and the server's name in `_meta`. */
  modern<T extends object>(result: T): ModernResult & T {
    return modernResult(this.settings, result);
  }

  /**
   * `ttlMs` and `cacheScope` of a cacheable 2026 result: `"public"` only
   * when the answer is the same for every caller, else `"private"`.
   */
  cacheHints(sameForEveryone: boolean) {
    return cacheHints(this.settings, sameForEveryone);
  }

  /**
   * The `tools/list` result of an revision in a language (and, for a list per
   * caller, a set of permissions: `reach`), written once by `build` and
   * then sent as prepared text: only the response's `id` differs per
   * request.
   */
  toolList(
    revision: ProtocolRevision,
    locale: string,
    reach: string | undefined,
    build: () => object,
  ): RawJson {
    const key =
      reach === undefined
        ? `${revision}:${locale}`
        : `${revision}:${locale}:${reach}`;
    let prepared = this.toolLists.get(key);
    if (!prepared) {
      const result = build();
      prepared = new RawJson(
        JSON.stringify(revision === '2025' ? result : this.modern(result)),
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
   * caller takes only an object. A result the method wrapped in
   * `McpResult` adds its content blocks after that text (or, without a
   * structured result, is its blocks alone).
   */
  toolResult(
    result: InvocationResult,
    revision: ProtocolRevision,
  ): RawJson | object {
    if (!result.ok) {
      const failed: McpToolResult = {
        content: [{ type: 'text', text: result.text }],
        isError: true,
      };
      return revision === '2026' ? this.modern(failed) : failed;
    }
    const { value, json, carried } = result;
    const rich = carried instanceof McpResult ? carried : undefined;
    const hasValue = rich ? rich.structured !== undefined : true;
    const structured =
      hasValue &&
      (revision === '2026'
        ? value !== undefined
        : typeof value === 'object' && value !== null && !Array.isArray(value));
    const blocks = [
      ...(hasValue ? [`{"type":"text","text":${JSON.stringify(json)}}`] : []),
      ...(rich && rich.content.length > 0 ? [contentJson(rich.content)] : []),
    ];
    const members = `"content":[${blocks.join(',')}]${structured ? `,"structuredContent":${json}` : ''}`;
    if (revision === '2025') {
      return new RawJson(`{${members}}`);
    }
    this.modernMeta ??= JSON.stringify(this.modern({})._meta);
    return new RawJson(
      `{"resultType":"complete",${members},"_meta":${this.modernMeta}}`,
    );
  }
}
