import { type DynamicModule, Module } from '@nestjs/common';
import {
  type McpServerLifecycleOptions,
  resolveLifecycleOptions,
} from './lifecycle-options.js';
import { LIFECYCLE_SETTINGS, ServerLifecycle } from './server-lifecycle.js';
import { MCP_SERVING } from './serving.port.js';

/**
 * Takes the app's HTTP server out of service without a lost request or a
 * reset connection: import it next to `McpModule` in an app that runs as
 * several instances behind a load balancer, or is restarted under load.
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot(),
 *     McpServerLifecycleModule.forRoot({ readinessPath: '/ready', shutdownDrainDelay: 5000 }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * What it costs: on the app's `http.Server` it adds a `request` listener
 * (ahead of the app's, for every request of the app, REST routes
 * included: a counter per connection and a `close` listener per
 * response), a `connection` listener, and its own `closeIdleConnections`
 * (which closes a connection only once it has been idle long enough, where
 * Node's resets one whose next request has just come in); `readinessPath`
 * is a route of its own. Each MCP request waits for the answers before it
 * on its connection to leave the process (pipelining back-pressure). On
 * Nest 12 it chains the HTTP adapter's `beforeClose()` and the root module's
 * `onApplicationBootstrap`; on Nest 11 the root module's `ModuleRef`
 * `onModuleDestroy`.
 *
 * @publicApi
 */
@Module({})
export class McpServerLifecycleModule {
  /** The lifecycle with `options`; every option has a default. */
  static forRoot(options: McpServerLifecycleOptions = {}): DynamicModule {
    return {
      module: McpServerLifecycleModule,
      global: true,
      providers: [
        {
          provide: LIFECYCLE_SETTINGS,
          useFactory: () => resolveLifecycleOptions(options),
        },
        ServerLifecycle,
        { provide: MCP_SERVING, useExisting: ServerLifecycle },
      ],
      exports: [MCP_SERVING],
    };
  }
}
