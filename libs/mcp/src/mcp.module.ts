import { DynamicModule, Module } from '@nestjs/common';
import { OperationsModule } from '@nestops/operations';
import {
  ConfigurableModuleClass,
  MCP_MODULE_OPTIONS,
  OPTIONS_TYPE,
} from './mcp-module-definition.js';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { MCP_SETTINGS, resolveMcpOptions } from './mcp-options.resolver.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { McpToolCatalogue } from './tools/mcp-tool.catalogue.js';
import { McpHttpTransport } from './transports/mcp-http.transport.js';

/**
 * Publishes the application's `@Operation()` methods as MCP tools over
 * Streamable HTTP (`POST /mcp`).
 *
 * ```ts
 * @Module({ imports: [McpModule.forRoot({ instructions: 'Order desk' }), OrdersModule] })
 * export class AppModule {}
 * ```
 *
 * @publicApi
 */
@Module({
  imports: [OperationsModule],
  providers: [
    {
      provide: MCP_SETTINGS,
      useFactory: (options: McpModuleOptions) => resolveMcpOptions(options),
      inject: [MCP_MODULE_OPTIONS],
    },
    McpToolCatalogue,
    McpDispatcher,
    McpHttpTransport,
  ],
  exports: [McpDispatcher, McpToolCatalogue],
})
export class McpModule extends ConfigurableModuleClass {
  /** Registers the MCP carrier; every option has a default. */
  static override forRoot(options: typeof OPTIONS_TYPE = {}): DynamicModule {
    return super.forRoot(options);
  }
}
