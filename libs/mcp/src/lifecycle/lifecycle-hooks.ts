import {
  BeforeApplicationShutdown,
  Injectable,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { ServerLifecycle } from './server-lifecycle.js';

/**
 * Nest's lifecycle hooks that take the server in and out of service. They
 * live in `McpServerLifecycleModule` itself, which is not global, so that
 * Nest runs them at the depth where the app imports it (the root module:
 * just after the root module's own `onModuleDestroy`, just before its own
 * `onApplicationBootstrap`); a global module's run first on bootstrap and
 * last on shutdown.
 */
@Injectable()
export class LifecycleHooks
  implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown
{
  constructor(private readonly lifecycle: ServerLifecycle) {}

  onApplicationBootstrap(): void {
    this.lifecycle.serve();
  }

  onModuleDestroy(): Promise<void> {
    return this.lifecycle.leave();
  }

  // The same drain, should Nest skip `onModuleDestroy` (it does not today).
  beforeApplicationShutdown(): Promise<void> {
    return this.lifecycle.leave();
  }
}
