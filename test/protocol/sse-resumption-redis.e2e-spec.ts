import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { CLIENT_INFO, ClientV1 } from '../support/mcp-clients';
import { openSse, type SseBlock } from '../support/sse-client';
import { type RunningApp, startApp } from '../support/start-app';
import {
  cutAfter,
  meaningOf,
  QUICK_RECONNECTION,
  postHeaders,
  resumeHeaders,
  slowCall,
  slowJobsModule,
} from './sse-resumption.fixtures';

/**
 * Resuming on instance B a stream whose call runs on instance A, with the
 * `redis` option: A appends each event to Redis and publishes it, B replays
 * and follows. Runs when REDIS_URL is set.
 */

const REDIS_URL = process.env.REDIS_URL;
const PREFIX = `sse-test:${process.pid}:${Date.now()}:`;
const RETAIN_MS = 1_000;

const summary = (blocks: readonly SseBlock[]) =>
  blocks.map((block) => `${block.id?.split(':')[1]} ${meaningOf(block.data)}`);

describe.runIf(REDIS_URL)(
  'resuming across two instances (redis option)',
  () => {
    let a: RunningApp;
    let b: RunningApp;
    let redis: Redis;

    beforeAll(async () => {
      const module = () =>
        slowJobsModule(
          { keyPrefix: `${PREFIX}streams:`, retainMs: RETAIN_MS },
          REDIS_URL,
        );
      a = await startApp(module(), { logger: ['error', 'warn'] });
      b = await startApp(module(), {
        logger: ['error', 'warn'],
        on: 'fastify',
      });
      redis = new Redis(REDIS_URL!);
    });
    afterAll(async () => {
      await redis?.quit();
      await a?.close();
      await b?.close();
    });

    it('a raw client drops its POST on A and gets exactly the rest by GET on B, live to the answer', async () => {
      const post = await openSse(a.baseUrl, {
        headers: postHeaders(),
        body: slowCall(1, 6, 50),
      });
      const first = [await post.next(), await post.next()] as SseBlock[];
      post.drop();
      const resumed = await openSse(b.baseUrl, {
        method: 'GET',
        headers: resumeHeaders(first[1].id!),
      });
      expect(resumed.status).toBe(200);
      expect(summary(await resumed.rest())).toEqual([
        '3 progress 3',
        '4 progress 4',
        '5 progress 5',
        '6 progress 6',
        '7 answer {"steps":6}',
      ]);
      const [stream] = first[0].id!.split(':');
      expect(await redis.get(`${PREFIX}streams:${stream}:owner`)).toMatch(
        /^[A-Za-z0-9_-]{43}$/,
      );
      expect(await redis.llen(`${PREFIX}streams:${stream}`)).toBe(8);
    });

    it('another caller on B gets what an unknown id gets, and the keys expire retainMs after the end', async () => {
      const post = await openSse(a.baseUrl, {
        headers: postHeaders({ authorization: 'Bearer alice' }),
        body: slowCall(2, 2, 5),
      });
      const ids = (await post.rest()).map((block) => block.id!);
      const get = (id: string, authorization: string) =>
        openSse(b.baseUrl, {
          method: 'GET',
          headers: resumeHeaders(id, { authorization }),
        });
      const mallory = await get(ids[0], 'Bearer mallory');
      const unknown = await get(`${'A'.repeat(22)}:1`, 'Bearer alice');
      expect(mallory.status).toBe(404);
      expect(await mallory.text()).toBe(await unknown.text());
      const alice = await get(ids[0], 'Bearer alice');
      expect(summary(await alice.rest())).toEqual([
        '2 progress 2',
        '3 answer {"steps":2}',
      ]);
      const [stream] = ids[0].split(':');
      expect(await redis.pttl(`${PREFIX}streams:${stream}`)).toBeGreaterThan(0);
      await new Promise((settle) => setTimeout(settle, RETAIN_MS + 300));
      expect(await redis.exists(`${PREFIX}streams:${stream}`)).toBe(0);
      expect((await get(ids[0], 'Bearer alice')).status).toBe(404);
    });

    it('a call silent for longer than retainMs keeps its stream: A renews the keys while it runs', async () => {
      const post = await openSse(a.baseUrl, {
        headers: postHeaders(),
        body: slowCall(3, 2, 1_500),
      });
      const first = (await post.next())!;
      post.drop();
      // Past retainMs since the latest event, before the next one.
      await new Promise((settle) => setTimeout(settle, RETAIN_MS + 200));
      const resumed = await openSse(b.baseUrl, {
        method: 'GET',
        headers: resumeHeaders(first.id!),
      });
      expect(resumed.status).toBe(200);
      expect(summary(await resumed.rest())).toEqual([
        '2 progress 2',
        '3 answer {"steps":2}',
      ]);
    });

    it('the SDK v1 client, its POST on A cut mid-call, resumes on B on its own', async () => {
      let cut = false;
      const gets: string[] = [];
      // POSTs go to A, GETs to B; A's first SSE answer is cut after an event.
      const split: typeof fetch = async (url, init) => {
        if (init?.method === 'GET') {
          gets.push(new Headers(init.headers).get('last-event-id') ?? '');
          return fetch(new URL('/mcp', b.baseUrl), init);
        }
        const response = await fetch(url, init);
        if (
          cut ||
          !response.headers.get('content-type')?.startsWith('text/event-stream')
        ) {
          return response;
        }
        cut = true;
        return cutAfter(response, 1);
      };
      const client = new ClientV1(CLIENT_INFO);
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', a.baseUrl), {
          fetch: split,
          reconnectionOptions: QUICK_RECONNECTION,
        }),
      );
      try {
        const progress: number[] = [];
        const result = await client.callTool(
          { name: 'jobs_slow', arguments: { steps: 5, stepMs: 50 } },
          undefined,
          { onprogress: ({ progress: value }) => progress.push(value) },
        );
        expect(result.structuredContent).toEqual({ steps: 5 });
        expect(progress).toEqual([1, 2, 3, 4, 5]);
        expect(cut).toBe(true);
        expect(gets.filter((id) => id !== '')).toHaveLength(1);
      } finally {
        await client.close();
      }
    });
  },
);
