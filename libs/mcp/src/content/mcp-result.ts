import { markCarried } from '@nestops/operations/internal';
import {
  contentBytes,
  MCP_CONTENT_MAX_BYTES,
  type McpContentBlock,
  tooLargeMessage,
} from './mcp-content.js';

/**
 * What an operation's method returns to answer a tool call with more than
 * its JSON: the structured result (what the operation's `output` DTO
 * describes, checked by its output contract, sent as `structuredContent`
 * and as the first text block) and content blocks after it, made by
 * `McpContent`. On the command line, `invoke` prints the structured
 * result and one line per other block.
 *
 * @example
 * return McpResult.of(order, McpContent.image(png, 'image/png'));
 *
 * @publicApi
 */
export class McpResult<T = unknown> {
  /** @internal Made by `McpResult.of` and `McpResult.content`. */
  constructor(
    /** The structured result; undefined: the content alone. */
    readonly structured: T | undefined,
    /** The blocks sent after it. */
    readonly content: readonly McpContentBlock[],
  ) {
    const bytes = content.reduce((sum, block) => sum + contentBytes(block), 0);
    if (bytes > MCP_CONTENT_MAX_BYTES) {
      throw new RangeError(tooLargeMessage('McpResult', bytes));
    }
    markCarried(this, structured);
    Object.freeze(this);
  }

  /** The structured result `structured`, with `content` after its JSON text. */
  static of<T>(
    structured: T,
    ...content: readonly McpContentBlock[]
  ): McpResult<T> {
    return new McpResult(structured, Object.freeze([...content]));
  }

  /** Content alone: no structured result (the operation declares no `output`). */
  static content(...content: readonly McpContentBlock[]): McpResult<never> {
    return new McpResult<never>(undefined, Object.freeze([...content]));
  }
}
