import { DynamicModule, Module } from '@nestjs/common';
import { OperationsModule } from '@nestops/operations';
import { callerFileOf } from './app-package.reader.js';
import { McpGuardCheck } from './mcp-guard.check.js';
import {
  ASYNC_OPTIONS_TYPE,
  ConfigurableModuleClass,
  MCP_MODULE_OPTIONS,
  OPTIONS_TYPE,
} from './mcp-module-definition.js';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { MCP_SETTINGS, resolveMcpOptions } from './mcp-options.resolver.js';
import {
  MCP_APP_SOURCE,
  MCP_HOST_NAME,
  serverDefaults,
  withAppSource,
} from './mcp-server-identity.js';
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
      useFactory: (
        options: McpModuleOptions,
        source: string | undefined,
        hostName: string | undefined,
      ) => resolveMcpOptions(options, serverDefaults(source, hostName)),
      inject: [
        MCP_MODULE_OPTIONS,
        { token: MCP_APP_SOURCE, optional: true },
        { token: MCP_HOST_NAME, optional: true },
      ],
    },
    McpToolCatalogue,
    McpDispatcher,
    McpHttpTransport,
    McpGuardCheck,
  ],
  exports: [McpDispatcher, McpToolCatalogue],
})
export class McpModule extends ConfigurableModuleClass {
  /**
   * Registers the MCP carrier; every option has a default. `serverName`
   * and `serverVersion` default to the `package.json` nearest to the file
   * that calls this.
   */
  static override forRoot(options: typeof OPTIONS_TYPE = {}): DynamicModule {
    return withAppSource(
      super.forRoot(options),
      callerFileOf(McpModule.forRoot),
    );
  }

  /** `forRoot` with options from a factory (`useFactory`, `inject`). */
  static override forRootAsync(
    options: typeof ASYNC_OPTIONS_TYPE,
  ): DynamicModule {
    return withAppSource(
      super.forRootAsync(options),
      callerFileOf(McpModule.forRootAsync),
    );
  }
}
