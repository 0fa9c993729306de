import type { McpMessage } from '../protocol/mcp-message.js';
import type { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import type { McpResourceCatalogue } from '../resources/mcp-resource.catalogue.js';
import type { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import type { GatedTarget, GatedTargetOf } from './permission-gate.js';

/**
 * What the permission gate looks up: the operation of a `tools/call`'s
 * tool or of the resource a `resources/read` names, the prompt a
 * `prompts/get` names; nothing for what the app does not have.
 */
export function gatedTargets(
  tools: McpToolCatalogue,
  resources: McpResourceCatalogue,
  prompts: McpPromptCatalogue,
): GatedTargetOf {
  return (message: McpMessage): GatedTarget | undefined => {
    if (message.kind !== 'request') {
      return undefined;
    }
    const { name, uri } = message.params;
    switch (message.method) {
      case 'tools/call': {
        const tool = typeof name === 'string' ? tools.find(name) : undefined;
        return (
          tool && {
            action: `calling ${name}`,
            needed: tool.operation.permissions,
          }
        );
      }
      case 'resources/read': {
        const read = typeof uri === 'string' ? resources.find(uri) : undefined;
        return (
          read && {
            action: `reading ${uri}`,
            needed: read.entry.operation.permissions,
          }
        );
      }
      case 'prompts/get': {
        const prompt =
          typeof name === 'string' ? prompts.find(name) : undefined;
        return (
          prompt && {
            action: `getting the prompt ${name}`,
            needed: prompt.permissions,
          }
        );
      }
      default:
        return undefined;
    }
  };
}
