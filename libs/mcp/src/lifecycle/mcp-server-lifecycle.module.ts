import { type DynamicModule, Module } from '@nestjs/common';
import {
  type McpServerLifecycleOptions,
  resolveLifecycleOptions,
} from './lifecycle-options.js';
import { LifecycleHooks } from './lifecycle-hooks.js';
import { LIFECYCLE_SETTINGS, ServerLifecycle } from './server-lifecycle.js';
import { MCP_SERVING } from './serving.port.js';

/** The server's lifecycle, global so that McpModule sees it wherever it is imported. */
@Module({})
class McpServingModule {}

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
 * Import it in the root module, after the modules whose `onModuleDestroy`
 * would break a request under way: Nest runs its `onModuleDestroy`, which
 * starts the drain and waits for it, right after the root module's own and
 * those of the modules the root imports after it; the drain is over before
 * any other module's `onModuleDestroy` and every `beforeApplicationShutdown`
 * and `onApplicationShutdown`. The app is ready from its
 * `onApplicationBootstrap` (Nest runs the root module's after it) or, with
 * `app.listen()`, once the server listens (`HttpAdapterHost.listen$`).
 *
 * What it costs: on the app's `http.Server` it adds a `request` listener
 * (ahead of the app's, for every request of the app, REST routes included: a counter per
 * connection and a `close` listener per response), a `connection`
 * listener, and its own `closeIdleConnections` (which closes a connection
 * only once it has been idle long enough, where Node's resets one whose
 * next request has just come in); `readinessPath` is a route of its own.
 * Each MCP request waits for the answers before it on its connection to
 * leave the process (pipelining back-pressure). It reads Nest through
 * public API only: its own providers' hooks and `HttpAdapterHost`.
 *
 * @publicApi
 */
@Module({})
export class McpServerLifecycleModule {
  /** The lifecycle with `options`; every option has a default. */
  static forRoot(options: McpServerLifecycleOptions = {}): DynamicModule {
    const serving: DynamicModule = {
      module: McpServingModule,
      global: true,
      providers: [
        {
          provide: LIFECYCLE_SETTINGS,
          useFactory: () => resolveLifecycleOptions(options),
        },
        ServerLifecycle,
        { provide: MCP_SERVING, useExisting: ServerLifecycle },
      ],
      exports: [MCP_SERVING, ServerLifecycle],
    };
    // Not global itself: Nest runs its hooks at the depth it is imported at.
    return {
      module: McpServerLifecycleModule,
      imports: [serving],
      providers: [LifecycleHooks],
    };
  }
}
