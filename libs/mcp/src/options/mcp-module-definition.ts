import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';

const definition = new ConfigurableModuleBuilder<McpModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/**
 * `McpModule`'s base class, made by Nest's `ConfigurableModuleBuilder`: the
 * `forRoot` and `forRootAsync` that `McpModule` extends.
 */
export const { ConfigurableModuleClass } = definition;

/**
 * The injection token of the options given to `McpModule.forRoot` (or made
 * by `forRootAsync`'s factory), as given: before defaults are applied.
 *
 * @publicApi
 */
export const MCP_MODULE_OPTIONS = definition.MODULE_OPTIONS_TOKEN;
