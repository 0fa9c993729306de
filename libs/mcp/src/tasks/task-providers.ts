import type { Provider } from '@nestjs/common';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpTaskRunner } from './task-runner.js';
import { TASK_ENGINE } from './task-engine.js';
import { TASK_STORE } from './task-store.js';
import { MemoryTaskEngine } from './memory-task-engine.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { McpTasks } from './mcp-tasks.js';

/** The task store, engine and services, of the engine the `tasks` option names. */
export const TASK_PROVIDERS: Provider[] = [
  {
    provide: TASK_STORE,
    useFactory: (settings: McpSettings) => {
      if (settings.tasks.engine === 'bullmq') {
        throw new Error('McpModule: tasks.engine bullmq is not built yet');
      }
      return new MemoryTaskStore();
    },
    inject: [MCP_SETTINGS],
  },
  {
    provide: TASK_ENGINE,
    useFactory: (runner: McpTaskRunner) =>
      new MemoryTaskEngine((id, signal) => runner.run(id, signal)),
    inject: [McpTaskRunner],
  },
  McpTaskRunner,
  McpTasks,
];
