import type { DynamicModule, Provider } from '@nestjs/common';
import { readAppPackage } from './app-package.reader.js';
import type { McpServerDefaults } from './mcp-options.resolver.js';

/** The file of the app's code that configured McpModule (`forRoot` / `forRootAsync`). */
export const MCP_APP_SOURCE = Symbol('MCP_APP_SOURCE');
/** The name a host gives the server (`runCli`'s `name`); optional. */
export const MCP_HOST_NAME = Symbol('MCP_HOST_NAME');

/** `module` with the file of the code that configured it. */
export function withAppSource(
  module: DynamicModule,
  source: string | undefined,
): DynamicModule {
  const provider: Provider = { provide: MCP_APP_SOURCE, useValue: source };
  return { ...module, providers: [...(module.providers ?? []), provider] };
}

/**
 * `serverInfo` where the options leave it out: the host's name, else the
 * `name` of the app's `package.json`; that file's `version`.
 */
export function serverDefaults(
  source: string | undefined,
  hostName: string | undefined,
): McpServerDefaults {
  const app = readAppPackage(source);
  return {
    serverName: hostName ?? app.name,
    serverVersion: app.version,
  };
}
