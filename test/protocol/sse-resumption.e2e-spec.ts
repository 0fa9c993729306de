import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent, fetch as undiciFetch } from 'undici';
import { CLIENT_INFO, ClientV1 } from '../support/mcp-clients';
import { openSse, type SseBlock } from '../support/sse-client';
import { HTTP_ADAPTERS, startApp, useApp } from '../support/start-app';
import {
  cutAfter,
  FINISHED,
  QUICK_RECONNECTION,
  meaningOf,
  postHeaders,
  resumeHeaders,
  slowCall,
  slowJobsModule,
} from './sse-resumption.fixtures';

const ID = /^[A-Za-z0-9_-]{22}:\d+$/;
const pause = (ms: number) => new Promise((settle) => setTimeout(settle, ms));

/** The numbers of `blocks`' ids after their stream's, and what each carries. */
function summary(blocks: readonly SseBlock[]) {
  return blocks
    .filter((block) => block.data !== undefined)
    .map((block) => `${block.id?.split(':')[1]} ${meaningOf(block.data)}`);
}

describe.each(HTTP_ADAPTERS)('resuming a 2025 SSE answer, on %s', (on) => {
  const running = useApp(() =>
    startApp(slowJobsModule({ closeAfterMs: undefined }), {
      logger: ['error', 'warn'],
      on,
    }),
  );
  const base = () => running().baseUrl;

  it('every event has an id naming its stream; the answer is the last one', async () => {
    const post = await openSse(base(), {
      headers: postHeaders(),
      body: slowCall(1, 2, 5),
    });
    const blocks = await post.rest();
    expect(blocks.map((block) => block.id)).toEqual([
      expect.stringMatching(ID),
      expect.stringMatching(ID),
      expect.stringMatching(ID),
    ]);
    const streams = new Set(blocks.map((block) => block.id!.split(':')[0]));
    expect(streams.size).toBe(1);
    expect(summary(blocks)).toEqual([
      '1 progress 1',
      '2 progress 2',
      '3 answer {"steps":2}',
    ]);
  });

  it('a raw client that drops the POST after two events gets exactly the rest by GET, live to the answer', async () => {
    const finished = FINISHED.count;
    const post = await openSse(base(), {
      headers: postHeaders(),
      body: slowCall(2, 8, 40),
    });
    const first = [await post.next(), await post.next()] as SseBlock[];
    post.drop();
    expect(summary(first)).toEqual(['1 progress 1', '2 progress 2']);
    // The call runs on meanwhile: events 3 and on are kept for the resume.
    await pause(130);
    const resumed = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(first[1].id!),
    });
    expect(resumed.status).toBe(200);
    expect(resumed.header('content-type')).toBe('text/event-stream');
    const rest = await resumed.rest();
    expect(summary(rest)).toEqual([
      '3 progress 3',
      '4 progress 4',
      '5 progress 5',
      '6 progress 6',
      '7 progress 7',
      '8 progress 8',
      '9 answer {"steps":8}',
    ]);
    expect(
      rest.every((block) => block.id!.startsWith(first[0].id!.split(':')[0])),
    ).toBe(true);
    expect(FINISHED.count).toBe(finished + 1);
  });

  it('after the stream ended, a GET replays what came after its id, then ends', async () => {
    const post = await openSse(base(), {
      headers: postHeaders(),
      body: slowCall(3, 3, 5),
    });
    const blocks = await post.rest();
    const again = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(blocks[0].id!),
    });
    expect(summary(await again.rest())).toEqual([
      '2 progress 2',
      '3 progress 3',
      '4 answer {"steps":3}',
    ]);
  });

  it('another caller presenting the same event id gets what an unknown id gets: 404, no event', async () => {
    const alice = { authorization: 'Bearer alice-token' };
    const post = await openSse(base(), {
      headers: postHeaders(alice),
      body: slowCall(4, 6, 30),
    });
    const first = (await post.next())!;
    post.drop();
    const asMallory = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(first.id!, { authorization: 'Bearer mallory' }),
    });
    const unknown = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(`${'A'.repeat(22)}:1`, alice),
    });
    const anonymous = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(first.id!),
    });
    for (const refused of [asMallory, unknown, anonymous]) {
      expect(refused.status).toBe(404);
      expect(refused.header('content-type')).toMatch(
        /^application\/problem\+json/,
      );
    }
    const [malloryText, unknownText] = await Promise.all([
      asMallory.text(),
      unknown.text(),
    ]);
    expect(malloryText).toBe(unknownText);
    expect(malloryText).not.toContain('progress');
    const asAlice = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(first.id!, alice),
    });
    expect(asAlice.status).toBe(200);
    expect(summary(await asAlice.rest()).at(-1)).toBe('7 answer {"steps":6}');
  });

  it.each([
    ['a malformed id', 'not-an-id'],
    ['an id past the last event', null],
  ])('%s is 404', async (_case, given) => {
    const post = await openSse(base(), {
      headers: postHeaders(),
      body: slowCall(5, 1, 5),
    });
    const blocks = await post.rest();
    const [stream] = blocks[0].id!.split(':');
    const refused = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(given ?? `${stream}:3`),
    });
    expect(refused.status).toBe(404);
  });

  it('a GET without Last-Event-ID is still 405, one without Accept: text/event-stream 406', async () => {
    const plain = await openSse(base(), {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
    });
    expect(plain.status).toBe(405);
    expect(plain.header('allow')).toBe('POST');
    const json = await openSse(base(), {
      method: 'GET',
      headers: resumeHeaders(`${'A'.repeat(22)}:1`, {
        accept: 'application/json',
      }),
    });
    expect(json.status).toBe(406);
  });

  it('the SDK v1 client whose POST stream is cut mid-call reconnects by GET with Last-Event-ID and gets the remaining progress and the result', async () => {
    let cut = false;
    const requests: string[] = [];
    // The client's own connections, all closed when the test ends.
    const agent = new Agent();
    // The SDK's fetch, whose first SSE POST is cut after two events.
    const cutting = (async (url: string | URL, init?: RequestInit) => {
      const response = (await undiciFetch(url, {
        ...(init as object),
        dispatcher: agent,
      })) as unknown as Response;
      requests.push(
        `${init?.method} ${new Headers(init?.headers).get('last-event-id') ?? ''}`.trim(),
      );
      const type = response.headers.get('content-type') ?? '';
      if (
        cut ||
        init?.method !== 'POST' ||
        !type.startsWith('text/event-stream')
      ) {
        return response;
      }
      cut = true;
      return cutAfter(response, 2);
    }) as typeof fetch;
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', base()), {
        fetch: cutting,
        reconnectionOptions: QUICK_RECONNECTION,
      }),
    );
    try {
      const progress: number[] = [];
      const tokens: string[] = [];
      const result = await client.callTool(
        { name: 'jobs_slow', arguments: { steps: 6, stepMs: 40 } },
        undefined,
        {
          onprogress: ({ progress: value }) => progress.push(value),
          onresumptiontoken: (token) => tokens.push(token),
        },
      );
      expect(result.structuredContent).toEqual({ steps: 6 });
      expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
      expect(cut).toBe(true);
      expect(requests).toContain(`GET ${tokens[1]}`);
      expect(tokens.map((token) => token.split(':')[1])).toEqual([
        '1',
        '2',
        '3',
        '4',
        '5',
        '6',
        '7',
      ]);
    } finally {
      await client.close();
      await agent.destroy();
    }
  });

  it('a request the server sends its client while it is away (roots/list) waits in the stream; the SDK v1 client answers it once resumed', async () => {
    const agent = new Agent();
    let cut = false;
    const client = new ClientV1(CLIENT_INFO, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: 'file:///work', name: 'work' }],
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', base()), {
        // The first SSE POST is cut after its first event (progress 1).
        fetch: (async (url: string | URL, init?: RequestInit) => {
          const response = (await undiciFetch(url, {
            ...(init as object),
            dispatcher: agent,
          })) as unknown as Response;
          const sse = response.headers
            .get('content-type')
            ?.startsWith('text/event-stream');
          if (cut || init?.method !== 'POST' || !sse) return response;
          cut = true;
          return cutAfter(response, 1);
        }) as typeof fetch,
        // Back after the server sent its request: the GET replays it.
        reconnectionOptions: {
          ...QUICK_RECONNECTION,
          initialReconnectionDelay: 400,
          maxReconnectionDelay: 400,
        },
      }),
    );
    try {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'jobs_rooted', arguments: { steps: 2, stepMs: 100 } },
        undefined,
        { onprogress: ({ progress: value }) => progress.push(value) },
      );
      expect(cut).toBe(true);
      expect(result.structuredContent).toEqual({ roots: ['file:///work'] });
      expect(progress).toEqual([1, 2]);
    } finally {
      await client.close();
      await agent.destroy();
    }
  });
});

describe.each(HTTP_ADAPTERS)(
  'closing long streams early (SEP-1699), on %s',
  (on) => {
    const running = useApp(() =>
      startApp(slowJobsModule({ closeAfterMs: 120, retryMs: 40 }), {
        logger: ['error', 'warn'],
        on,
      }),
    );
    const base = () => running().baseUrl;

    it('the POST ends after closeAfterMs with a retry field, without the answer; GETs poll to the answer', async () => {
      const post = await openSse(base(), {
        headers: postHeaders(),
        body: slowCall(6, 10, 40),
      });
      const blocks = await post.rest();
      expect(blocks.at(-1)).toEqual({ retry: 40 });
      const seen = summary(blocks);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((line) => line.includes('answer'))).toBe(false);
      let last = blocks.filter((block) => block.id).at(-1)!.id!;
      let polls = 0;
      while (!seen.at(-1)!.includes('answer')) {
        polls += 1;
        const get = await openSse(base(), {
          method: 'GET',
          headers: resumeHeaders(last),
        });
        expect(get.status).toBe(200);
        const more = await get.rest();
        seen.push(...summary(more));
        last = more.filter((block) => block.id).at(-1)?.id ?? last;
      }
      expect(polls).toBeGreaterThan(1);
      expect(seen.map((line) => line.split(' ')[0])).toEqual(
        Array.from({ length: 11 }, (_, index) => String(index + 1)),
      );
      expect(seen.at(-1)).toBe('11 answer {"steps":10}');
    });

    it('the SDK v1 client follows the polls on its own to the result, every progress once', async () => {
      const client = new ClientV1(CLIENT_INFO);
      const methods: string[] = [];
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', base()), {
          fetch: (url, init) => {
            methods.push(init?.method ?? 'GET');
            return fetch(url, init);
          },
        }),
      );
      try {
        const progress: number[] = [];
        const result = await client.callTool(
          { name: 'jobs_slow', arguments: { steps: 8, stepMs: 40 } },
          undefined,
          { onprogress: ({ progress: value }) => progress.push(value) },
        );
        expect(result.structuredContent).toEqual({ steps: 8 });
        expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        // initialize's GET (405), then at least one poll.
        expect(
          methods.filter((method) => method === 'GET').length,
        ).toBeGreaterThan(1);
      } finally {
        await client.close();
      }
    });
  },
);

describe('resumption: false', () => {
  const running = useApp(() =>
    startApp(slowJobsModule(false), { logger: ['error', 'warn'] }),
  );

  it('sends events without ids, and a GET with Last-Event-ID is 405', async () => {
    const post = await openSse(running().baseUrl, {
      headers: postHeaders(),
      body: slowCall(7, 2, 5),
    });
    const blocks = await post.rest();
    expect(blocks.map((block) => block.id)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const get = await openSse(running().baseUrl, {
      method: 'GET',
      headers: resumeHeaders(`${'A'.repeat(22)}:1`),
    });
    expect(get.status).toBe(405);
  });
});
