import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { McpModule } from '@nestops/mcp';
import { PingController, PingService } from '../fixtures/nest-stack-fixtures';
import { errorText, resultJson, mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * Two instances of one app behind a balancer, each with `ThrottlerGuard` as
 * `APP_GUARD` (two calls a minute per caller): with a Redis-backed
 * `ThrottlerStorage` (`@nest-lab/throttler-storage-redis`, on the Redis of
 * REDIS_URL) the limit holds across the instances for tool calls; with the
 * throttler's default in-memory storage each instance counts alone, and
 * twice the limit gets through. Runs when REDIS_URL is set (`.ci/run` sets
 * it).
 */

const REDIS_URL = process.env.REDIS_URL;
// The throttler's name is part of every key it counts under: a run of its own.
const THROTTLER = `mcp-${process.pid}-${Date.now()}`;

/** The app of an instance; its throttler counts in Redis or in its own memory. */
function instanceOf(storage: 'redis' | 'memory'): Type {
  @Module({
    imports: [
      McpModule.forRoot({ serverName: 'instance' }),
      ThrottlerModule.forRoot({
        throttlers: [{ name: THROTTLER, ttl: 60_000, limit: 2 }],
        ...(storage === 'redis'
          ? { storage: new ThrottlerStorageRedisService(REDIS_URL as string) }
          : {}),
      }),
    ],
    controllers: [PingController],
    providers: [PingService, { provide: APP_GUARD, useClass: ThrottlerGuard }],
  })
  class InstanceModule {}
  return InstanceModule;
}

const PONG = { pong: true };
const THROTTLED =
  /^SECURITY_THROTTLED_001: Too many calls; retry in (59|60) s\.$/;

describe.runIf(REDIS_URL)('a rate limit shared by two instances', () => {
  describe('with a Redis-backed ThrottlerStorage', () => {
    const first = useApp(() => startApp(instanceOf('redis')));
    const second = useApp(() => startApp(instanceOf('redis')));

    it('the limit holds across the instances: a third call, on either, is throttled', async () => {
      expect(
        resultJson(await mcpHttp(first().baseUrl).callTool('pings_send')),
      ).toEqual(PONG);
      expect(
        resultJson(await mcpHttp(second().baseUrl).callTool('pings_send')),
      ).toEqual(PONG);
      expect(
        errorText(await mcpHttp(second().baseUrl).callTool('pings_send')),
      ).toMatch(THROTTLED);
      expect(
        errorText(await mcpHttp(first().baseUrl).callTool('pings_send')),
      ).toMatch(THROTTLED);
    });
  });

  describe("with the throttler's default in-memory storage", () => {
    const first = useApp(() => startApp(instanceOf('memory')));
    const second = useApp(() => startApp(instanceOf('memory')));

    it('each instance counts alone: twice the limit gets through', async () => {
      for (const instance of [first(), second()]) {
        for (let call = 0; call < 2; call += 1) {
          expect(
            resultJson(await mcpHttp(instance.baseUrl).callTool('pings_send')),
          ).toEqual(PONG);
        }
        expect(
          errorText(await mcpHttp(instance.baseUrl).callTool('pings_send')),
        ).toMatch(THROTTLED);
      }
    });
  });
});

if (!REDIS_URL) {
  it.skip('a rate limit shared by two instances: needs REDIS_URL (Redis)', () =>
    undefined);
}
