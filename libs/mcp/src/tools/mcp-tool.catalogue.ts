import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  ContractError,
  OperationDefinition,
  OperationRegistry,
} from '@nestops/operations';
import { MCP_SETTINGS, type McpSettings } from '../mcp-options.resolver';
import { TOOL_NAME_PATTERN } from '../mcp.constants';
import { createTool, defaultToolName } from './mcp-tool.factory';
import type { McpTool } from './mcp-tool.interface';
import {
  DUPLICATE_TOOL_NAME,
  INVALID_TOOL_NAME,
  duplicateToolNameMessage,
  invalidToolNameMessage,
  unknownOverrideMessage,
} from './mcp-tool.messages';

interface CatalogueEntry {
  readonly tool: McpTool;
  readonly operation: OperationDefinition;
}

/**
 * The tools of the application, built once at bootstrap from the operations
 * exposed on MCP. Building fails the startup on an invalid or duplicate name.
 */
@Injectable()
export class McpToolCatalogue implements OnApplicationBootstrap {
  private entries?: ReadonlyMap<string, CatalogueEntry>;
  private list?: readonly McpTool[];

  constructor(
    private readonly registry: OperationRegistry,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.build();
  }

  tools(): readonly McpTool[] {
    this.build();
    return this.list as readonly McpTool[];
  }

  find(name: string): CatalogueEntry | undefined {
    this.build();
    return this.entries?.get(name);
  }

  private build(): void {
    if (this.entries) {
      return;
    }
    for (const id of Object.keys(this.settings.tools)) {
      if (!this.registry.get(id)) {
        throw new Error(unknownOverrideMessage(id));
      }
    }
    const entries = new Map<string, CatalogueEntry>();
    for (const operation of this.registry.exposedOn('mcp')) {
      const name = Object.hasOwn(this.settings.tools, operation.id)
        ? this.settings.tools[operation.id]
        : defaultToolName(operation.id);
      if (!TOOL_NAME_PATTERN.test(name)) {
        throw new ContractError(
          INVALID_TOOL_NAME,
          invalidToolNameMessage(name, operation),
        );
      }
      const previous = entries.get(name);
      if (previous) {
        throw new ContractError(
          DUPLICATE_TOOL_NAME,
          duplicateToolNameMessage(name, previous.operation, operation),
        );
      }
      entries.set(name, { tool: createTool(name, operation), operation });
    }
    this.entries = entries;
    this.list = Object.freeze([...entries.values()].map((entry) => entry.tool));
  }
}
