import type { Provider } from '@nestjs/common';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpTaskRunner } from './task-runner.js';
import { TASK_ENGINE, type TaskEngine } from './task-engine.js';
import { TASK_STORE, type TaskStore } from './task-store.js';
import { MemoryTaskEngine } from './memory-task-engine.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { RedisTaskStore } from './redis-task-store.js';
import { BullTaskEngine, requireBullMq } from './bullmq-task-engine.js';
import { McpTasks } from './mcp-tasks.js';

/** Where the tasks of the queue `queueName` live in Redis: their keys, the cancellation channel. */
export function taskKeyPrefix(queueName: string): string {
  return `nestops:mcp:tasks:${queueName}:`;
}

/** The Redis URL of the `bullmq` engine (the `redis` option; the resolver checked it is set). */
function redisUrl(settings: McpSettings): string {
  if (!settings.redis) {
    throw new Error("McpModule: tasks.engine 'bullmq' needs the redis option");
  }
  return settings.redis.url;
}

/**
 * The task store, engine and services of the engine the `tasks` option
 * names: `memory` in this process; `bullmq`, tasks in Redis and runs as
 * jobs of a BullMQ queue on the `redis` option's server.
 */
export const TASK_PROVIDERS: Provider[] = [
  {
    provide: TASK_STORE,
    useFactory: (settings: McpSettings): TaskStore | Promise<TaskStore> => {
      if (settings.tasks.engine !== 'bullmq') {
        return new MemoryTaskStore();
      }
      // Before any connection: the engine needs it too.
      requireBullMq();
      return RedisTaskStore.connect(
        redisUrl(settings),
        taskKeyPrefix(settings.tasks.queueName),
      );
    },
    inject: [MCP_SETTINGS],
  },
  {
    provide: TASK_ENGINE,
    useFactory: (
      settings: McpSettings,
      runner: McpTaskRunner,
    ): TaskEngine | Promise<TaskEngine> => {
      const run = (id: string, signal: AbortSignal) => runner.run(id, signal);
      if (settings.tasks.engine !== 'bullmq') {
        return new MemoryTaskEngine(run);
      }
      const { queueName, concurrency } = settings.tasks;
      return BullTaskEngine.connect(run, {
        url: redisUrl(settings),
        queueName,
        concurrency,
        abortChannel: `${taskKeyPrefix(queueName)}abort`,
      });
    },
    inject: [MCP_SETTINGS, McpTaskRunner],
  },
  McpTaskRunner,
  McpTasks,
];
