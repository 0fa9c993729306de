import { contentBytes, type McpContentBlock } from './mcp-content.js';

/**
 * One line saying what a content block holds, for the command line, which
 * prints no binary data: `image image/png, 68 bytes`, `link
 * orders://7/label (label.pdf)`; a text block is its text.
 */
export function contentLine(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `${block.type} ${block.mimeType}, ${contentBytes(block)} bytes`;
    case 'resource':
      return `resource ${block.resource.uri}${block.resource.mimeType ? ` (${block.resource.mimeType})` : ''}, ${contentBytes(block)} bytes`;
    case 'resource_link':
      return `link ${block.uri} (${block.name})`;
  }
}
