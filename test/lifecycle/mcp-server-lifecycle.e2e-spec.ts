import { Module } from '@nestjs/common';
import { McpModule, McpServerLifecycleModule } from '@nestops/mcp';
import { Server } from 'node:http';
import { HTTP_ADAPTERS, type RunningApp, startApp } from '../support/start-app';
import { rpcRequest, mcpHttp } from '../support/mcp-http';

/**
 * The app's HTTP server is the app's: McpModule alone adds only its own
 * routes; the drain, readiness and back-pressure come with
 * McpServerLifecycleModule, imported on purpose.
 */

@Module({})
class BareModule {}

@Module({ imports: [McpModule.forRoot({ serverName: 'alone' })] })
class McpAloneModule {}

@Module({
  imports: [
    McpModule.forRoot({ serverName: 'with-lifecycle' }),
    McpServerLifecycleModule.forRoot({ readinessPath: '/ready' }),
  ],
})
class McpWithLifecycleModule {}

describe.each(HTTP_ADAPTERS)('the HTTP server on %s', (on) => {
  const started: RunningApp[] = [];
  afterAll(() => Promise.all(started.map((running) => running.close())));

  async function start(module: new () => object) {
    const running = await startApp(module, { on });
    started.push(running);
    const server = running.app.getHttpServer() as Server;
    return { running, server };
  }

  it("with McpModule alone keeps the adapter's own request listener and Node's closeIdleConnections", async () => {
    const bare = await start(BareModule);
    const alone = await start(McpAloneModule);

    expect(alone.server.listeners('request')).toHaveLength(
      bare.server.listeners('request').length,
    );
    expect(alone.server.listeners('connection')).toHaveLength(
      bare.server.listeners('connection').length,
    );
    expect(alone.server.closeIdleConnections).toBe(
      Server.prototype.closeIdleConnections,
    );
    expect((await fetch(`${alone.running.baseUrl}/ready`)).status).toBe(404);
    const listed = await mcpHttp(alone.running.baseUrl).post(
      rpcRequest(1, 'tools/list'),
    );
    expect(listed.status).toBe(200);
  });

  it('with McpServerLifecycleModule adds its listener, its closeIdleConnections and readiness', async () => {
    const bare = await start(BareModule);
    const managed = await start(McpWithLifecycleModule);

    expect(managed.server.listeners('request')).toHaveLength(
      bare.server.listeners('request').length + 1,
    );
    expect(managed.server.closeIdleConnections).not.toBe(
      Server.prototype.closeIdleConnections,
    );
    const ready = await fetch(`${managed.running.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});
