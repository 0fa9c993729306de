import { DynamicModule, Module } from '@nestjs/common';
import { OperationsModule } from '@nestops/operations';
import {
  INVOCATION_DEFAULTS,
  type InvocationDefaults,
} from '@nestops/operations/internal';
import { callerFileOf } from './options/app-package.reader.js';
import { McpGuardCheck } from './auth/mcp-guard.check.js';
import {
  ConfigurableModuleClass,
  MCP_MODULE_OPTIONS,
} from './options/mcp-module-definition.js';
import type { ConfigurableModuleAsyncOptions } from '@nestjs/common';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { MCP_SETTINGS, type McpSettings } from './options/mcp-settings.js';
import { resolveMcpOptions } from './options/mcp-options.resolver.js';
import {
  MCP_APP_SOURCE,
  serverDefaults,
  withAppSource,
} from './options/server-identity.js';
import { McpDispatcher } from './protocol/mcp.dispatcher.js';
import { McpProtocol } from './protocol/mcp-protocol.js';
import { ClientAnswers } from './protocol/client-answers.js';
import { ANSWER_RELAY } from './protocol/answer-relay.js';
import { RedisAnswerRelay } from './protocol/redis-answer-relay.js';
import { McpTelemetry } from './telemetry/mcp-telemetry.js';
import { McpAnswerWriter } from './protocol/answer.writer.js';
import { McpGreeting } from './protocol/mcp-greeting.js';
import { Revision2025Handler } from './protocol/revision-2025.handler.js';
import { McpTools } from './protocol/mcp-tools.js';
import { McpAsking } from './asking/mcp-asking.js';
import { McpCallInvoker } from './protocol/call-invocation.js';
import { TASK_PROVIDERS } from './tasks/task-providers.js';
import { McpPrompts } from './protocol/mcp-prompts.js';
import { McpCompletions } from './protocol/mcp-completions.js';
import { McpPromptCatalogue } from './prompts/mcp-prompt.catalogue.js';
import { McpResources } from './protocol/mcp-resources.js';
import { McpResourceCatalogue } from './resources/mcp-resource.catalogue.js';
import { Revision2026Handler } from './protocol/revision-2026.handler.js';
import { McpJwtGuard } from './auth/mcp-jwt.guard.js';
import { ProtectedResource } from './auth/protected-resource.js';
import { McpToolCatalogue } from './tools/mcp-tool.catalogue.js';
import { McpHttpTransport } from './transports/http/mcp-http.transport.js';
import { McpAuthGuardRef } from './auth/outer-authenticator.js';

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
      useFactory: (options: McpModuleOptions, source: string | undefined) =>
        resolveMcpOptions(options, serverDefaults(source)),
      inject: [MCP_MODULE_OPTIONS, { token: MCP_APP_SOURCE, optional: true }],
    },
    {
      // The module's timeout, input limits, permissions and tenant, for every carrier's calls.
      provide: INVOCATION_DEFAULTS,
      useFactory: (settings: McpSettings): InvocationDefaults => ({
        timeout: settings.timeout,
        inputLimits: settings.inputLimits,
        permissionsOf: settings.permissionsOf,
        tenantOf: settings.tenantOf,
        confirm: settings.asking.confirm,
        runUnconfirmed: settings.asking.runUnconfirmed,
      }),
      inject: [MCP_SETTINGS],
    },
    {
      // Answers to another instance's requests: over Redis with the `redis` option.
      provide: ANSWER_RELAY,
      useFactory: (settings: McpSettings) =>
        settings.redis ? new RedisAnswerRelay(settings.redis) : null,
      inject: [MCP_SETTINGS],
    },
    ClientAnswers,
    McpToolCatalogue,
    McpAnswerWriter,
    McpAsking,
    McpCallInvoker,
    ...TASK_PROVIDERS,
    McpTools,
    McpPromptCatalogue,
    McpPrompts,
    McpCompletions,
    McpResourceCatalogue,
    McpResources,
    McpGreeting,
    Revision2025Handler,
    Revision2026Handler,
    McpTelemetry,
    McpDispatcher,
    McpProtocol,
    ProtectedResource,
    McpAuthGuardRef,
    McpHttpTransport,
    McpGuardCheck,
    McpJwtGuard,
  ],
  exports: [McpProtocol, McpToolCatalogue, McpJwtGuard],
})
export class McpModule extends ConfigurableModuleClass {
  /**
   * Registers the MCP carrier; every option has a default. `serverName`
   * and `serverVersion` default to the `package.json` nearest to the file
   * that calls this.
   */
  static override forRoot(options: McpModuleOptions = {}): DynamicModule {
    return withAppSource(
      super.forRoot(options),
      callerFileOf(McpModule.forRoot),
    );
  }

  /** `forRoot` with options from a factory (`useFactory`, `inject`). */
  static override forRootAsync(
    options: ConfigurableModuleAsyncOptions<McpModuleOptions>,
  ): DynamicModule {
    return withAppSource(
      super.forRootAsync(options),
      callerFileOf(McpModule.forRootAsync),
    );
  }
}
