// Copied into the consumer app's src/ by scripts/consumer-test.sh and built
// with it: the quick start's AppModule under a root module that adds what a
// graceful shutdown check needs, a tool call that takes a while and a
// provider of the root module whose onModuleDestroy takes a while too (Nest
// runs the root module's onModuleDestroy hooks first, before McpModule's), and
// McpServerLifecycleModule, which drains the server on SIGTERM.
// Started with Nest's shutdown hooks, as a main.ts would be, on a free port
// that it prints; scripts/consumer/shutdown.mjs drives it.
import {
  Injectable,
  Module,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpServerLifecycleModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { AppModule } from './app.module.js';
import { setupApp } from './app.setup.js';

/** How long a call of `slow.wait` takes. */
const CALL_MS = 2_000;
/** How long the root module's provider takes to close its resources. */
const CLOSE_MS = 1_500;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

@Injectable()
export class SlowService {
  @Operation({
    id: 'slow.wait',
    title: 'Wait',
    description: 'Answers after two seconds.',
    readOnly: true,
  })
  async wait(): Promise<{ waitedMs: number }> {
    await sleep(CALL_MS);
    return { waitedMs: CALL_MS };
  }
}

@Injectable()
export class SlowResource implements OnModuleDestroy, OnApplicationShutdown {
  async onModuleDestroy(): Promise<void> {
    console.log('root module: closing resources');
    await sleep(CLOSE_MS);
  }

  onApplicationShutdown(signal?: string): void {
    console.log(`application shut down (${signal})`);
  }
}

// McpServerLifecycleModule drains the server when the app begins closing.
@Module({
  imports: [AppModule, McpServerLifecycleModule.forRoot()],
  providers: [SlowService, SlowResource],
})
export class ShutdownAppModule {}

async function bootstrap() {
  const app = await NestFactory.create(ShutdownAppModule, {
    logger: ['error', 'warn'],
  });
  setupApp(app);
  // Exit 0 once closed; Nest before 11.1.10 has no options (it ignores them
  // and ends the process with the signal instead).
  Reflect.apply(app.enableShutdownHooks, app, [[], { useProcessExit: true }]);
  await app.listen(0, '127.0.0.1');
  console.log(`listening on ${await app.getUrl()}`);
}
void bootstrap();
