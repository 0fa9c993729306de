import {
  type BeforeApplicationShutdown,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ExpressAdapter,
  type NestExpressApplication,
} from '@nestjs/platform-express';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpModule } from '../mcp.module.js';
import { McpServerLifecycleModule } from './mcp-server-lifecycle.module.js';

/** What `GET /ready` answered, or why there was no answer. */
function readiness(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/ready', agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code ?? error.message),
    );
    req.end();
  });
}

/** `tools/list` on the MCP endpoint: its status, or why there was none. */
function mcpStatus(port: number): Promise<string> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code ?? error.message),
    );
    req.end(body);
  });
}

/** Each hook's name and what `/ready` answered while it ran. */
const SEEN = Symbol('SEEN');
/** The port the app's server listens on, once it does. */
class Port {
  value = 0;
}

function recorder(name: string) {
  @Injectable()
  class Recorder
    implements
      OnApplicationBootstrap,
      OnModuleDestroy,
      BeforeApplicationShutdown
  {
    constructor(
      @Inject(SEEN) private readonly seen: string[],
      private readonly port: Port,
    ) {}

    private async note(hook: string): Promise<void> {
      this.seen.push(`${name} ${hook}: ${await readiness(this.port.value)}`);
    }

    onApplicationBootstrap(): Promise<void> {
      return this.note('onApplicationBootstrap');
    }

    onModuleDestroy(): Promise<void> {
      return this.note('onModuleDestroy');
    }

    beforeApplicationShutdown(): Promise<void> {
      return this.note('beforeApplicationShutdown');
    }
  }
  return Recorder;
}

@Global()
@Module({
  providers: [{ provide: SEEN, useValue: [] }, Port],
  exports: [SEEN, Port],
})
class SeenModule {}

@Module({ providers: [recorder('deep')] })
class DeepModule {}

@Module({ imports: [DeepModule] })
class MiddleModule {}

@Module({ providers: [recorder('imported after')] })
class LaterModule {}

@Global()
@Module({ providers: [recorder('global')] })
class OtherGlobalModule {}

@Module({
  imports: [
    SeenModule,
    OtherGlobalModule,
    MiddleModule,
    McpServerLifecycleModule.forRoot({ readinessPath: '/ready' }),
    LaterModule,
  ],
  providers: [recorder('root')],
})
class AppModule {}

/** The app, its server listening before `init()` so that each hook can ask `/ready`. */
async function listeningApp(
  module: new () => object,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    module,
    new ExpressAdapter(),
    { logger: false },
  );
  const server = app.getHttpServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  app.get(Port).value = (server.address() as AddressInfo).port;
  return app;
}

describe('McpServerLifecycleModule in the order Nest runs its hooks', () => {
  it("is ready from its own onApplicationBootstrap, after deeper modules' and before the root module's", async () => {
    const app = await listeningApp(AppModule);
    try {
      await app.init();
      const seen = app.get<string[]>(SEEN);
      expect(seen).toEqual([
        'global onApplicationBootstrap: 503',
        'deep onApplicationBootstrap: 503',
        'imported after onApplicationBootstrap: 200',
        'root onApplicationBootstrap: 200',
      ]);
    } finally {
      await app.close();
    }
  });

  it("drains right after the root module's onModuleDestroy and those of the modules the root imports after it, before every other hook", async () => {
    const app = await listeningApp(AppModule);
    await app.init();
    const seen = app.get<string[]>(SEEN);
    seen.length = 0;
    await app.close();

    expect(seen).toEqual([
      'root onModuleDestroy: 200',
      'imported after onModuleDestroy: 200',
      'deep onModuleDestroy: ECONNREFUSED',
      'global onModuleDestroy: ECONNREFUSED',
      'root beforeApplicationShutdown: ECONNREFUSED',
      'imported after beforeApplicationShutdown: ECONNREFUSED',
      'deep beforeApplicationShutdown: ECONNREFUSED',
      'global beforeApplicationShutdown: ECONNREFUSED',
    ]);
  });

  it('with app.listen(), is ready once the server listens', async () => {
    @Module({
      imports: [
        SeenModule,
        McpServerLifecycleModule.forRoot({ readinessPath: '/ready' }),
      ],
    })
    class ListenModule {}
    const app = await NestFactory.create<NestExpressApplication>(
      ListenModule,
      new ExpressAdapter(),
      { logger: false },
    );
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as AddressInfo;
      expect(await readiness(port)).toBe('200');
    } finally {
      await app.close();
    }
  });

  it('imported before McpModule: the MCP endpoint serves on through the drain delay, which its onModuleDestroy starts', async () => {
    @Module({ providers: [recorder('imported last')] })
    class LastModule {}
    @Module({
      imports: [
        SeenModule,
        McpServerLifecycleModule.forRoot({
          readinessPath: '/ready',
          shutdownDrainDelay: 300,
        }),
        McpModule.forRoot({ serverName: 'order', serverVersion: '1.0.0' }),
        LastModule,
      ],
    })
    class McpLastModule {}
    const app = await listeningApp(McpLastModule);
    await app.init();
    const port = app.get(Port).value;
    const seen = app.get<string[]>(SEEN);
    seen.length = 0;
    const closing = app.close();
    while ((await readiness(port)) === '200') {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const during = await mcpStatus(port);
    await closing;

    expect(during).toBe('200');
    expect(seen[0]).toBe('imported last onModuleDestroy: 200');
    expect(seen.slice(1)).toEqual([
      'imported last beforeApplicationShutdown: ECONNREFUSED',
    ]);
  });
});
