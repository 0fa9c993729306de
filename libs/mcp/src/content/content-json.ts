import type { McpBinary, McpContentBlock } from './mcp-content.js';

/**
 * The JSON text of content blocks, as a tool result's `content` members:
 * bytes are encoded to base64 here, once, straight from the caller's
 * buffer (no copy), and written into the text without escaping (base64
 * needs none).
 */
export function contentJson(blocks: readonly McpContentBlock[]): string {
  return blocks.map(blockJson).join(',');
}

function blockJson(block: McpContentBlock): string {
  switch (block.type) {
    case 'image':
    case 'audio':
      return `{"type":"${block.type}","data":"${base64(block.data)}","mimeType":${JSON.stringify(block.mimeType)}}`;
    case 'resource': {
      const { resource } = block;
      const head = `{"uri":${JSON.stringify(resource.uri)}${resource.mimeType === undefined ? '' : `,"mimeType":${JSON.stringify(resource.mimeType)}`}`;
      const body =
        'text' in resource
          ? `"text":${JSON.stringify(resource.text)}`
          : `"blob":"${base64(resource.blob)}"`;
      return `{"type":"resource","resource":${head},${body}}}`;
    }
    default:
      return JSON.stringify(block);
  }
}

/**
 * A block as it goes out in a JSON value (a prompt message's `content`):
 * its bytes, if any, as base64.
 */
export function contentObject(block: McpContentBlock): McpContentBlock {
  switch (block.type) {
    case 'image':
    case 'audio':
      return { ...block, data: base64(block.data) };
    case 'resource': {
      const { resource } = block;
      return 'blob' in resource
        ? { ...block, resource: { ...resource, blob: base64(resource.blob) } }
        : block;
    }
    default:
      return block;
  }
}

function base64(data: McpBinary): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString(
        'base64',
      );
}
