import { APP_GUARD } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { getInvocationContext } from '@nestops/operations';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTasksApp, type TasksFixture } from '../fixtures/tasks-fixtures';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  modernHeaders,
  modernRequest,
} from '../support/modern-mcp';

const META = {
  ...MODERN_META,
  [CAPABILITIES_KEY]: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

async function rpc(
  app: TasksFixture,
  id: number,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const message = modernRequest(id, method, params, META);
  const response = await fetch(`${app.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...modernHeaders(message),
      authorization: 'Bearer alice',
    },
    body: JSON.stringify(message),
  });
  return ((await response.json()) as { result: Record<string, unknown> })
    .result;
}

describe('tasks under @nestjs/throttler', () => {
  let app: TasksFixture;
  beforeAll(async () => {
    app = await startTasksApp('sqlite', {
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: 2 }],
          // A task's run passes the guards again: count its creation only.
          skipIf: (context) =>
            getInvocationContext(context)?.taskId !== undefined,
        }),
      ],
      providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],
    });
  });
  afterAll(() => app?.close());

  it('counts each task once, at its creation: the third is refused, no task made', async () => {
    const write = (id: number) =>
      rpc(app, id, 'tools/call', {
        name: 'notes_write',
        arguments: { text: 't', count: 1, pause: 0 },
      });
    const statuses: unknown[] = [];
    for (const id of [1, 2]) {
      const { taskId } = await write(id);
      let task: Record<string, unknown>;
      do {
        await sleep(50);
        task = await rpc(app, 10 + id, 'tasks/get', { taskId });
      } while (task.status === 'working');
      statuses.push(task.status, (task.result as { isError?: true }).isError);
    }
    expect(statuses).toEqual(['completed', undefined, 'completed', undefined]);

    const third = await write(3);
    expect(third).not.toHaveProperty('taskId');
    expect(third).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^SECURITY_THROTTLED_001/) }],
    });
    expect(await app.notes()).toBe(2);
  });
});
