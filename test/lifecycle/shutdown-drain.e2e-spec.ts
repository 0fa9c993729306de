import { Agent } from 'node:http';
import {
  FIXTURE_DRAIN_MS,
  FIXTURE_GRACE_MS,
  ShutdownGraceModule,
  ShutdownHold,
  StuckCalls,
} from '../fixtures/shutdown-fixtures';
import {
  JSON_TYPE,
  type McpReply,
  rpcRequest,
  sendExact,
} from '../support/mcp-http';
import { readiness, until } from '../support/shutdown';
import { HTTP_ADAPTERS, startApp } from '../support/start-app';

// The drain of an app in this process (test/shutdown spawns the sample and
// drains it under load): this one runs under `npm run test:mutation` too.
describe.each(HTTP_ADAPTERS)(
  'McpModule shutdownDrainDelay and shutdownGracePeriod, fixture app on %s',
  (on) => {
    it('on close: /ready answers 503 while /mcp serves on; after the delay every request sent on an open connection is answered with Connection: close, no connection is taken, and a call still running when the grace period ends is cut off', async () => {
      const { app, baseUrl } = await startApp(ShutdownGraceModule, { on });
      const stuck = app.get(StuckCalls);
      const hold = app.get(ShutdownHold);
      const agent = new Agent({ keepAlive: true });
      const pinger = new Agent({ keepAlive: true, maxSockets: 1 });
      const ping = (via: Agent) =>
        sendExact(baseUrl, {
          headers: JSON_TYPE,
          body: JSON.stringify(rpcRequest(2, 'ping')),
          agent: via,
        });
      try {
        const ready = await readiness(baseUrl);
        await ping(pinger);
        const call = sendExact(baseUrl, {
          headers: JSON_TYPE,
          body: JSON.stringify(
            rpcRequest(1, 'tools/call', { name: 'stuck_wait', arguments: {} }),
          ),
          agent,
        }).catch((error: unknown) => error);
        await until(() => stuck.started === 1);

        const closing = app.close();
        const leaving = await readiness(baseUrl);
        const during = await ping(pinger);
        const drained: McpReply[] = [];
        do {
          drained.push(await ping(pinger));
        } while (drained.at(-1)?.header('connection') !== 'close');
        const fresh = await ping(new Agent()).catch((error: unknown) => error);
        await until(() => hold.reached);
        hold.letGo();
        const closed = await Promise.race([
          closing.then(() => 'closed'),
          new Promise<'still closing'>((resolve) =>
            setTimeout(
              () => resolve('still closing'),
              FIXTURE_DRAIN_MS + FIXTURE_GRACE_MS + 3_000,
            ),
          ),
        ]);

        expect(ready.status).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
        expect(leaving.status).toBe(503);
        expect(leaving.json()).toEqual({ status: 'leaving' });
        expect(leaving.header('retry-after')).toBe('1');
        expect(during.status).toBe(200);
        expect(during.header('connection')).toBe('keep-alive');
        expect(drained.map((reply) => reply.status)).toEqual(
          drained.map(() => 200),
        );
        expect(String(fresh)).toMatch(/ECONNREFUSED/);
        expect(closed).toBe('closed');
        expect(await call).toBeInstanceOf(Error);
      } finally {
        hold.letGo();
        stuck.releaseAll();
        agent.destroy();
        pinger.destroy();
      }
    });
  },
);
