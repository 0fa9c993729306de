import type { INestApplicationContext } from '@nestjs/common';
import { McpPromptCatalogue } from './mcp-prompt.catalogue.js';

/** One prompt, as the command line's `operations` lists it. */
export interface PromptRow {
  readonly prompt: string;
  readonly arguments: readonly { name: string; required: boolean }[];
  readonly carriers: readonly ['mcp'];
  readonly permissions: readonly string[];
}

/** The app's prompts, by name. */
export function promptRows(app: INestApplicationContext): PromptRow[] {
  const catalogue = app.get(McpPromptCatalogue, { strict: false });
  return catalogue.list(catalogue.defaultLanguage()).map((entry) => ({
    prompt: entry.name,
    arguments: (entry.arguments ?? []).map(({ name, required }) => ({
      name,
      required,
    })),
    carriers: ['mcp'],
    permissions: [...(catalogue.find(entry.name)?.permissions ?? [])],
  }));
}
