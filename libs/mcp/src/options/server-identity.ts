import type { DynamicModule, Provider } from '@nestjs/common';
import { readAppPackage } from './app-package.reader.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpServerDefaults } from './mcp-settings.js';
import {
  DEFAULT_SERVER_NAME,
  DEFAULT_SERVER_VERSION,
} from '../mcp.constants.js';
import type { McpGreetingSettings } from '../protocol/greeting.js';

/** The file of the app's code that configured McpModule (`forRoot` / `forRootAsync`). */
export const MCP_APP_SOURCE = Symbol('MCP_APP_SOURCE');

/** `module` with the file of the code that configured it. */
export function withAppSource(
  module: DynamicModule,
  source: string | undefined,
): DynamicModule {
  const provider: Provider = { provide: MCP_APP_SOURCE, useValue: source };
  return { ...module, providers: [...(module.providers ?? []), provider] };
}

/**
 * `serverInfo` where the options leave it out: the `name` and `version` of
 * the app's `package.json`, the same on every carrier.
 */
export function serverDefaults(source: string | undefined): McpServerDefaults {
  const app = readAppPackage(source);
  return { serverName: app.name, serverVersion: app.version };
}

/**
 * What the greetings depend on, from McpModule's options (or `runCli`'s
 * `server`, which must say the same) with `defaults` where they leave the
 * name and version out.
 */
export function greetingSettings(
  options: Pick<
    McpModuleOptions,
    'serverName' | 'serverVersion' | 'instructions' | 'cacheTtl'
  >,
  defaults: McpServerDefaults,
): McpGreetingSettings {
  return {
    serverName:
      options.serverName ?? defaults.serverName ?? DEFAULT_SERVER_NAME,
    serverVersion:
      options.serverVersion ?? defaults.serverVersion ?? DEFAULT_SERVER_VERSION,
    instructions: options.instructions || undefined,
    cacheTtl: options.cacheTtl,
  };
}
