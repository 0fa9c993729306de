import { openSse } from '../support/sse-client';
import { startApp, useApp } from '../support/start-app';
import {
  meaningOf,
  postHeaders,
  resumeHeaders,
  slowCall,
  slowJobsModule,
} from './sse-resumption.fixtures';

const pause = (ms: number) => new Promise((settle) => setTimeout(settle, ms));

/** A finished call's event ids, on `baseUrl`. */
async function finishedCall(baseUrl: string, id: number, steps: number) {
  const post = await openSse(baseUrl, {
    headers: postHeaders(),
    body: slowCall(id, steps, 2),
  });
  return (await post.rest()).map((block) => block.id!);
}

/** A GET resuming after `lastEventId`: its status, and what its events carry. */
async function resume(baseUrl: string, lastEventId: string) {
  const get = await openSse(baseUrl, {
    method: 'GET',
    headers: resumeHeaders(lastEventId),
  });
  const blocks = await get.rest();
  return {
    status: get.status,
    body: get.status === 200 ? '' : await get.text(),
    events: blocks.map((block) => meaningOf(block.data)),
  };
}

const UNKNOWN = `${'A'.repeat(22)}:1`;

describe('a stream is kept retainMs once its call answered', () => {
  const running = useApp(() =>
    startApp(slowJobsModule({ retainMs: 200 }), { logger: ['error', 'warn'] }),
  );

  it('resumes at once; past retainMs it answers as an unknown id does', async () => {
    const ids = await finishedCall(running().baseUrl, 1, 2);
    expect(await resume(running().baseUrl, ids[1])).toMatchObject({
      status: 200,
      events: ['answer {"steps":2}'],
    });
    await pause(400);
    const expired = await resume(running().baseUrl, ids[1]);
    const unknown = await resume(running().baseUrl, UNKNOWN);
    expect(expired.status).toBe(404);
    expect(expired).toEqual(unknown);
  });
});

describe('a stream keeps maxEventsPerStream events, all of them maxEvents', () => {
  const running = useApp(() =>
    startApp(slowJobsModule({ maxEventsPerStream: 3, maxEvents: 6 }), {
      logger: ['error', 'warn'],
    }),
  );

  it('a resume from before the oldest kept event is 404; from a kept one, the rest', async () => {
    const ids = await finishedCall(running().baseUrl, 2, 6);
    expect(ids).toHaveLength(7);
    expect((await resume(running().baseUrl, ids[0])).status).toBe(404);
    // Events 5, 6 and 7 are kept: after event 3, event 4 is missing.
    expect((await resume(running().baseUrl, ids[2])).status).toBe(404);
    expect(await resume(running().baseUrl, ids[3])).toMatchObject({
      status: 200,
      events: ['progress 5', 'progress 6', 'answer {"steps":6}'],
    });
  });

  it('past maxEvents in all, the oldest streams go whole', async () => {
    const first = await finishedCall(running().baseUrl, 3, 2);
    const second = await finishedCall(running().baseUrl, 4, 2);
    expect((await resume(running().baseUrl, first[0])).status).toBe(200);
    // 3 + 3 events kept; 3 more push the first stream out.
    await finishedCall(running().baseUrl, 5, 2);
    const evicted = await resume(running().baseUrl, first[0]);
    expect(evicted).toEqual(await resume(running().baseUrl, UNKNOWN));
    expect((await resume(running().baseUrl, second[0])).status).toBe(200);
  });
});
