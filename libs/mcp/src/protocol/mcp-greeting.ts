import { Inject, Injectable } from '@nestjs/common';
import { OperationRegistry } from '@nestops/operations/internal';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpResourceCatalogue } from '../resources/mcp-resource.catalogue.js';
import type { McpGreetingSettings, McpServerFeature } from './greeting.js';
import { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import { McpCompletions } from './mcp-completions.js';

/**
 * What the app's greetings (`initialize`, `server/discover`) say: the
 * module's settings and the features the app has beyond tools, read once.
 */
@Injectable()
export class McpGreeting {
  private current?: McpGreetingSettings;

  /** @internal Made by Nest's injector. */
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly prompts: McpPromptCatalogue,
    private readonly completions: McpCompletions,
    private readonly resources: McpResourceCatalogue,
    private readonly registry: OperationRegistry,
  ) {}

  /** The greeting settings, features included. */
  get(): McpGreetingSettings {
    if (!this.current) {
      const features = this.features();
      this.current = {
        ...this.settings,
        ...(features.length > 0 ? { features } : {}),
      };
    }
    return this.current;
  }

  /** The features the app has beyond tools and logging, in a stable order. */
  private features(): McpServerFeature[] {
    return [
      ...(this.resources.hasAny() ? (['resources'] as const) : []),
      ...(this.prompts.any() ? (['prompts'] as const) : []),
      ...(this.completions.any() ? (['completions'] as const) : []),
      ...(this.registry
        .exposedOn('mcp')
        .some((operation) => operation.task !== undefined)
        ? (['tasks'] as const)
        : []),
    ];
  }
}
