import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Inject, Injectable, Module, type Type } from '@nestjs/common';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { Redis } from 'ioredis';
import { CLIENT_INFO, ClientV1 } from '../support/mcp-clients';
import {
  NGINX_INSTALLED,
  type RunningNginx,
  startNginx,
} from '../support/nginx';
import { type RunningApp, startApp } from '../support/start-app';
import { WarningLog } from '../support/warning-log';

/**
 * The 2025 round trip of a request the server sends its client mid-call
 * (`context.elicit()`, an `elicitation/create`) on two instances of one app behind nginx
 * (round-robin): the client's answer is a POST of its own, which nginx
 * sends to the other instance; with the `redis` option that one passes it
 * on over Redis to the instance running the call. Runs when REDIS_URL is
 * set and nginx is installed.
 */

const REDIS_URL = process.env.REDIS_URL;
const PREFIX = `test:mcp:answers:${process.pid}:${Date.now()}:`;
const INSTANCE = Symbol('INSTANCE');
const ROUND_TRIPS = 100;

/** The deletions each instance ran, once the user confirmed them. */
const DELETED = new Map<string, number>();

/** Deletes once the user confirmed it (`confirm: true`), and says which instance ran it. */
@Injectable()
class Deletions {
  constructor(@Inject(INSTANCE) private readonly instance: string) {}

  @Operation({ id: 'deletion.run', input: null, confirm: true })
  run() {
    DELETED.set(this.instance, (DELETED.get(this.instance) ?? 0) + 1);
    return { instance: this.instance, deleted: true };
  }
}

function instanceModule(name: string): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        serverName: 'answers-across',
        redis: { url: REDIS_URL!, channelPrefix: PREFIX },
        // 2026-07-28's sealed round trips; this file's calls are 2025.
        asking: { stateKeys: ['answers-across-instances-0123456789abcdef'] },
      }),
    ],
    providers: [Deletions, { provide: INSTANCE, useValue: name }],
  })
  class InstanceModule {}
  return InstanceModule;
}

/** One POST through nginx: what it carried and which instance answered it. */
interface Exchange {
  readonly message: { id?: unknown; method?: string; result?: unknown };
  readonly upstream: string | null;
}

/** The SDK's fetch, each exchange noted (the transport's `fetch` option). */
function noting(exchanges: Exchange[]): typeof fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (typeof init?.body === 'string') {
      exchanges.push({
        message: JSON.parse(init.body) as Exchange['message'],
        upstream: response.headers.get('x-upstream'),
      });
    }
    return response;
  };
}

describe.runIf(REDIS_URL && NGINX_INSTALLED)(
  'elicitation across two instances behind nginx (redis option)',
  () => {
    const warnings = new WarningLog();
    const instances = new Map<string, string>();
    const apps: RunningApp[] = [];
    let nginx: RunningNginx;
    let watcher: Redis;
    const relayed: string[] = [];

    beforeAll(async () => {
      for (const name of ['A', 'B']) {
        const app = await startApp(instanceModule(name), { logger: warnings });
        apps.push(app);
        instances.set(new URL(app.baseUrl).host, name);
      }
      nginx = await startNginx([...instances.keys()]);
      watcher = new Redis(REDIS_URL!);
      await watcher.psubscribe(`${PREFIX}*`);
      watcher.on('pmessage', (_pattern, _channel, text) => relayed.push(text));
    });
    afterAll(async () => {
      await watcher?.quit();
      await nginx?.stop();
      await Promise.all(apps.map((app) => app.close()));
    });

    /** An SDK v1 client through nginx whose user accepts every confirmation. */
    async function client(
      exchanges: Exchange[],
      onAsk?: (id: unknown) => Promise<void>,
    ) {
      const sdk = new ClientV1(CLIENT_INFO, {
        capabilities: { elicitation: {} },
      });
      sdk.setRequestHandler(ElicitRequestSchema, async (_request, extra) => {
        await onAsk?.(extra.requestId);
        return { action: 'accept' };
      });
      await sdk.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', nginx.baseUrl), {
          fetch: noting(exchanges),
          requestInit: { headers: { Authorization: 'Bearer alice-key' } },
        }),
      );
      return sdk;
    }

    /** The instance that answered each POST of a round trip: the call's, the answer's. */
    function legs(exchanges: Exchange[], answerId: unknown) {
      const call = exchanges.find((e) => e.message.method === 'tools/call');
      const answer = exchanges.find(
        (e) => e.message.id === answerId && 'result' in e.message,
      );
      return {
        call: instances.get(call?.upstream ?? ''),
        answer: instances.get(answer?.upstream ?? ''),
      };
    }

    it("completes a call whose client's answer nginx sends to the other instance", async () => {
      const exchanges: Exchange[] = [];
      let asked: unknown;
      const sdk = await client(exchanges, async (id) => {
        asked = id;
      });
      try {
        // Round-robin alternates, but the SDK's own GET may shift the turn: a few tries.
        for (let tries = 0; tries < 4; tries++) {
          exchanges.length = 0;
          const before = relayed.length;
          const result = await sdk.callTool({
            name: 'deletion_run',
            arguments: {},
          });
          const ran = (result.structuredContent as { instance: string })
            .instance;
          expect(result.structuredContent).toEqual({
            instance: ran,
            deleted: true,
          });
          expect(asked).toMatch(/^[0-9a-f]{16}-\d+$/);
          const { call, answer } = legs(exchanges, asked);
          expect(call).toBe(ran);
          if (answer === ran) {
            continue;
          }
          expect(answer).toBe(ran === 'A' ? 'B' : 'A');
          // Through Redis, with a digest of the caller, never its credentials.
          await vi.waitFor(() => expect(relayed.length).toBe(before + 1));
          expect(JSON.parse(relayed[before])).toEqual({
            id: asked,
            caller: expect.stringMatching(/^[\w-]{43}$/),
            result: { action: 'accept' },
          });
          expect(relayed[before]).not.toContain('alice-key');
          return;
        }
        expect.fail('no answer reached the other instance in 4 calls');
      } finally {
        await sdk.close();
      }
    });

    it("ignores and logs another caller's answer that reached the other instance", async () => {
      const exchanges: Exchange[] = [];
      let asked: unknown;
      const sdk = await client(exchanges, async (id) => {
        asked = id;
        // Another caller answers the same id first, on the instance not running the call.
        const call = exchanges.find((e) => e.message.method === 'tools/call');
        const other = apps.find(
          (app) => new URL(app.baseUrl).host !== call?.upstream,
        )!;
        const forged = await fetch(new URL('/mcp', other.baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: 'Bearer mallory-key',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: { action: 'decline' },
          }),
        });
        expect(forged.status).toBe(202);
        const foreign = `Ignored a client's answer to another caller's request (id ${JSON.stringify(id)})`;
        await vi.waitFor(() => expect(warnings.warnings).toContain(foreign));
      });
      try {
        warnings.warnings.length = 0;
        const result = await sdk.callTool({
          name: 'deletion_run',
          arguments: {},
        });
        expect(result.structuredContent).toMatchObject({ deleted: true });
        expect(asked).toBeDefined();
      } finally {
        await sdk.close();
      }
    });

    it(`makes ${ROUND_TRIPS} round trips in a row through nginx, none lost or stuck`, async () => {
      const exchanges: Exchange[] = [];
      const sdk = await client(exchanges);
      const before = relayed.length;
      const deletedBefore = [...DELETED.values()].reduce((a, b) => a + b, 0);
      const tally = { completed: 0, crossed: 0, lost: 0, stuck: 0 };
      const started = performance.now();
      try {
        for (let i = 0; i < ROUND_TRIPS; i++) {
          exchanges.length = 0;
          try {
            const result = await sdk.callTool(
              { name: 'deletion_run', arguments: {} },
              undefined,
              { timeout: 10_000 },
            );
            const { instance, deleted } = (result.structuredContent ?? {}) as {
              instance?: string;
              deleted?: boolean;
            };
            const asked = exchanges.find(
              (e) => 'result' in e.message && e.message.method === undefined,
            )?.message.id;
            if (result.isError || deleted !== true) {
              tally.lost += 1;
            } else {
              tally.completed += 1;
              if (legs(exchanges, asked).answer !== instance)
                tally.crossed += 1;
            }
          } catch (error) {
            if (/timed out/i.test(String(error))) tally.stuck += 1;
            else tally.lost += 1;
          }
        }
      } finally {
        await sdk.close();
      }
      const ms = performance.now() - started;
      console.log(
        `${ROUND_TRIPS} confirmations through nginx: ${tally.completed} completed, ` +
          `${tally.crossed} answered on the other instance (${relayed.length - before} relayed over Redis), ` +
          `${tally.lost} lost, ${tally.stuck} stuck, in ${ms.toFixed(0)} ms`,
      );
      expect(tally).toMatchObject({
        completed: ROUND_TRIPS,
        lost: 0,
        stuck: 0,
      });
      expect(tally.crossed).toBeGreaterThan(0);
      // Each confirmed deletion ran once, on the instance that asked.
      expect(
        [...DELETED.values()].reduce((a, b) => a + b, 0) - deletedBefore,
      ).toBe(ROUND_TRIPS);
      await vi.waitFor(() =>
        expect(relayed.length - before).toBe(tally.crossed),
      );
    });
  },
);
