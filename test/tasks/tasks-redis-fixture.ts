import { Injectable, Module, type Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Redis } from 'ioredis';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { McpModule } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { UnitOfWorkModule } from '@nestops/typeorm';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { setTimeout as sleep } from 'node:timers/promises';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { sqliteDriver } from '../../src/database/database.options';
import { mcpHttp, type McpReply } from '../support/mcp-http';
import {
  CAPABILITIES_KEY,
  MODERN_META,
  modernRequest,
} from '../support/modern-mcp';

/** The tasks extension and elicitation, as a 2026-07-28 client declares them. */
export const TASKS_META = {
  ...MODERN_META,
  [CAPABILITIES_KEY]: {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

/** A row a task writes, in its call's transaction. */
@Entity('task_rows')
export class TaskRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  label!: string;
}

export class SlowInput {
  @IsString()
  label!: string;

  @IsInt()
  @Min(0)
  @Max(60)
  seconds!: number;
}

export class ConfirmForm {
  @IsBoolean()
  ok!: boolean;
}

/** Where each run of `rows.slow` began (by label), and the labels whose run saw its signal abort. */
export const RUNS = {
  started: new Map<string, string[]>(),
  aborted: new Set<string>(),
};

/** The fixture's operations on one instance named `instance`. */
function rowsService(instance: string): Type {
  @Injectable()
  class Rows {
    constructor(
      private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    ) {}

    /** A row, then `seconds` of waiting (progress each 100 ms), then a second row. */
    @Operation({ id: 'rows.slow', input: SlowInput, task: 'optional' })
    async slow(input: SlowInput, context: InvocationContext) {
      const runs = RUNS.started.get(input.label) ?? [];
      RUNS.started.set(input.label, [...runs, instance]);
      const repository = this.txHost.tx.getRepository(TaskRow);
      await repository.save({ label: `${input.label} 1` });
      try {
        for (let tenth = 0; tenth < input.seconds * 10; tenth++) {
          context.reportProgress(tenth, input.seconds * 10, 'waiting');
          await sleep(100, undefined, { signal: context.signal });
        }
      } catch (error) {
        RUNS.aborted.add(input.label);
        throw error;
      }
      await repository.save({ label: `${input.label} 2` });
      return { instance, label: input.label };
    }

    /** Asks to confirm, as a task waiting on its client. */
    @Operation({
      id: 'rows.confirm',
      input: null,
      elicits: [ConfirmForm],
      task: 'optional',
    })
    async confirm(_input: undefined, context: InvocationContext) {
      const answer = await context.elicit(ConfirmForm, 'Sure?', {
        key: 'sure',
      });
      return {
        instance,
        confirmed: answer.action === 'accept' && answer.content.ok,
      };
    }
  }
  return Rows;
}

/** One instance of the fixture app: tasks on the bullmq engine, rows in the SQLite file `database`. */
export function instanceModule(
  instance: string,
  redisUrl: string,
  queueName: string,
  database: string,
): Type {
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        type: 'better-sqlite3',
        database,
        driver: sqliteDriver(),
        entities: [TaskRow],
        synchronize: instance === 'A',
        enableWAL: true,
      }),
      UnitOfWorkModule.forRoot(),
      McpModule.forRoot({
        serverName: 'tasks-redis',
        redis: redisUrl,
        tasks: { engine: 'bullmq', queueName },
        asking: { stateKeys: ['tasks-redis-e2e-0123456789abcdef'] },
      }),
    ],
    providers: [rowsService(instance)],
  })
  class InstanceModule {}
  return InstanceModule;
}

let nextId = 1;

/** A 2026-07-28 request of a client that negotiated tasks, with its headers (`Mcp-Name`: the tool, or the task). */
export function taskRequest(
  baseUrl: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<McpReply> {
  return mcpHttp(baseUrl).post(
    modernRequest(nextId++, method, params, TASKS_META),
    { accept: 'application/json, text/event-stream', ...headers },
    { modern: true },
  );
}

/** What a task request answered: its result, or an error when it has none. */
export async function taskResult<T = Record<string, unknown>>(
  reply: Promise<McpReply>,
): Promise<T> {
  const answer = await reply;
  const body = answer.json<{ result?: T; error?: unknown }>();
  if (answer.status !== 200 || !body.result) {
    throw new Error(`HTTP ${answer.status}: ${answer.text}`);
  }
  return body.result;
}

/** Polls `tasks/get` on `baseUrl` until the task's status is one of `statuses`. */
export async function waitForTask(
  baseUrl: string,
  taskId: string,
  statuses: readonly string[],
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await taskResult(
      taskRequest(baseUrl, 'tasks/get', { taskId }, headers),
    );
    if (statuses.includes(task.status as string)) {
      return task;
    }
    if (Date.now() > deadline) {
      throw new Error(`task ${taskId} still ${JSON.stringify(task)}`);
    }
    await sleep(50);
  }
}

/** Deletes the keys of the queue `queue` (BullMQ's and the tasks'). */
export async function dropKeys(queue: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL!);
  try {
    for (const pattern of [`bull:${queue}:*`, `nestops:mcp:tasks:${queue}:*`]) {
      const keys = await redis.keys(pattern);
      if (keys.length > 0) {
        await redis.del(...keys);
      }
    }
  } finally {
    await redis.quit();
  }
}
