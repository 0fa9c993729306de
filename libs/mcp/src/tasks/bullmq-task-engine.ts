import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import {
  loadPeer,
  type RedisConnection,
  RedisConnections,
} from '../protocol/redis-connections.js';
import type { TaskEngine, TaskRun } from './task-engine.js';

/** How long a worker holds a job without renewing its lock (renewed every half). */
const LOCK_DURATION_MS = 5000;
/** How often each worker looks for jobs whose lock expired (their instance died). */
const STALLED_INTERVAL_MS = 2500;
/** How often a job is taken up again after its instance died, before BullMQ fails it. */
const MAX_STALLED = 2;
/** How often a job is handed to another instance because its own shut down. */
const HAND_OVERS = 1000;
/** How long a shutdown lets the runs on this instance finish before handing them over. */
const CLOSE_GRACE_MS = 5000;

/** Why a run was aborted: its task was cancelled, or its instance shuts down. */
const CANCELLED = 'cancelled';
const CLOSING = 'closing';

/** What the engine uses of an ioredis client besides connecting. */
interface RedisClient extends RedisConnection {
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, text: string) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'ready', listener: () => void): void;
}

/** What the engine uses of the bullmq package. */
interface BullMq {
  Queue: typeof Queue;
  Worker: typeof Worker;
}

/** Where the engine's queue lives, and how many tasks one instance runs. */
export interface BullTaskEngineSettings {
  readonly url: string;
  readonly queueName: string;
  readonly concurrency: number;
  /** The pub/sub channel of cancellations, the same on every instance. */
  readonly abortChannel: string;
}

/**
 * Tasks as jobs of a BullMQ queue that every instance works: `start` adds a
 * job (an id of its own for each start), any instance's worker takes it
 * and runs the task from its stored record. A job whose instance died is
 * taken up by another once its lock expires (BullMQ's stalled jobs); one
 * whose instance shuts down is handed back to the queue. `abort` reaches
 * the instance running the task over Redis pub/sub.
 */
export class BullTaskEngine implements TaskEngine, OnApplicationBootstrap {
  private readonly logger = new Logger('McpTasks');
  /** The runs of this instance, by job id. */
  private readonly running = new Map<
    string,
    { taskId: string; controller: AbortController }
  >();
  private closing?: Promise<void>;

  private constructor(
    private readonly queue: Queue,
    private readonly worker: Worker,
    private readonly clients: readonly RedisClient[],
    private readonly settings: BullTaskEngineSettings,
  ) {}

  /**
   * The engine's queue, worker and cancellation channel on `settings.url`
   * (bullmq and ioredis from `load`); its worker starts on the app's
   * bootstrap. A startup error when either package is missing or Redis
   * cannot be reached.
   */
  static async connect(
    run: TaskRun,
    settings: BullTaskEngineSettings,
    load: (name: 'bullmq' | 'ioredis') => unknown = (name) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with the bullmq engine
      name === 'bullmq' ? require('bullmq') : require('ioredis'),
  ): Promise<BullTaskEngine> {
    const bull = loadBullMq(() => load('bullmq'));
    const connections = new RedisConnections(settings.url, 'tasks', () =>
      load('ioredis'),
    );
    const logger = new Logger('McpTasks');
    const connect = (options: Record<string, unknown>) =>
      connections.connect<RedisClient>(options);
    // Commands fail fast on the queue's connection; BullMQ wants none on the worker's.
    const [queuing, working, listening] = await allOrNone([
      connect({ maxRetriesPerRequest: 1 }),
      connect({ maxRetriesPerRequest: null }),
      connect({ maxRetriesPerRequest: 1 }),
    ]);
    const queue = new bull.Queue(settings.queueName, { connection: queuing });
    const worker: Worker = new bull.Worker(
      settings.queueName,
      (job: Job<{ taskId: string }>): Promise<void> => engine.process(job, run),
      {
        connection: working,
        concurrency: settings.concurrency,
        autorun: false,
        lockDuration: LOCK_DURATION_MS,
        stalledInterval: STALLED_INTERVAL_MS,
        maxStalledCount: MAX_STALLED,
      },
    );
    const engine: BullTaskEngine = new BullTaskEngine(
      queue,
      worker,
      [queuing, working, listening],
      settings,
    );
    const warn = (error: Error) =>
      logger.warn(`The task queue failed: ${error.message}`);
    queue.on('error', warn);
    worker.on('error', warn);
    listening.on('message', (_channel, taskId) =>
      engine.abortHere(taskId, CANCELLED),
    );
    await listening.subscribe(settings.abortChannel);
    return engine;
  }

  /** Starts the worker once the app has bootstrapped: its operations are known. */
  onApplicationBootstrap(): void {
    this.worker.run().catch((error: unknown) => {
      this.logger.error(`The task worker stopped: ${String(error)}`);
    });
  }

  async start(id: string): Promise<void> {
    await this.queue.add(
      'task',
      { taskId: id },
      {
        // Each start a job of its own: a task resumed after tasks/update runs again.
        jobId: `${id}.${randomBytes(6).toString('hex')}`,
        attempts: HAND_OVERS,
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  async abort(id: string): Promise<void> {
    this.abortHere(id, CANCELLED);
    await this.clients[0].publish(this.settings.abortChannel, id);
  }

  /**
   * Stops taking jobs; the runs still going after a grace period are
   * aborted and handed back to the queue, for another instance.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const grace = setTimeout(() => {
      for (const { taskId } of this.running.values()) {
        this.abortHere(taskId, CLOSING);
      }
    }, CLOSE_GRACE_MS);
    try {
      await this.worker.close();
      await this.queue.close();
    } finally {
      clearTimeout(grace);
      await Promise.allSettled(this.clients.map((client) => client.quit()));
    }
  }

  /** Runs the job's task; a run cut short by the shutdown fails the job, which is retried elsewhere. */
  private async process(
    job: Job<{ taskId: string }>,
    run: TaskRun,
  ): Promise<void> {
    const { taskId } = job.data;
    const controller = new AbortController();
    this.running.set(job.id!, { taskId, controller });
    try {
      await run(taskId, controller.signal);
    } finally {
      this.running.delete(job.id!);
    }
    if (controller.signal.reason === CLOSING) {
      throw new Error(`task ${taskId} handed over: its instance shuts down`);
    }
  }

  /** Aborts this instance's runs of the task `taskId`. */
  private abortHere(taskId: string, reason: string): void {
    for (const entry of this.running.values()) {
      if (entry.taskId === taskId) {
        entry.controller.abort(reason);
      }
    }
  }
}

/** Fails the start, saying to install it, when the bullmq package is missing. */
export function requireBullMq(): void {
  loadBullMq();
}

/** The bullmq package from `load`, or a startup error saying to install it. */
function loadBullMq(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only with the bullmq engine
  load: () => unknown = () => require('bullmq'),
): BullMq {
  const bull = loadPeer('bullmq', load) as BullMq | undefined;
  if (typeof bull?.Worker !== 'function') {
    throw new Error(
      "McpModule's tasks.engine 'bullmq' needs the bullmq package (5 or 6): npm install bullmq",
    );
  }
  return bull;
}

/** Every connection, or none: when one fails, those made are closed. */
async function allOrNone(
  connecting: Promise<RedisClient>[],
): Promise<RedisClient[]> {
  const made = await Promise.allSettled(connecting);
  const failure = made.find((one) => one.status === 'rejected');
  if (!failure) {
    return made.map(
      (one) => (one as PromiseFulfilledResult<RedisClient>).value,
    );
  }
  await Promise.allSettled(
    made.map((one) =>
      one.status === 'fulfilled' ? one.value.quit() : undefined,
    ),
  );
  throw failure.reason;
}
