import type { McpTasksOptions } from '../interfaces/mcp-tasks-options.interface.js';

/** The `tasks` option with its defaults. */
export interface McpTasksSettings {
  readonly engine: 'memory' | 'bullmq';
  readonly ttl: number;
  readonly pollInterval: number;
  readonly queueName: string;
  readonly concurrency: number;
}

const positive = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) > 0;

/** `tasks` checked (with whether `redis` is set), each problem pushed to `problems`. */
export function resolveTasksOptions(
  options: McpTasksOptions | undefined,
  hasRedis: boolean,
  problems: string[],
): McpTasksSettings {
  const {
    engine = 'memory',
    ttl,
    pollInterval,
    queueName,
    concurrency,
  } = options ?? {};
  if (engine !== 'memory' && engine !== 'bullmq') {
    problems.push("tasks.engine must be 'memory' or 'bullmq'");
  } else if (engine === 'bullmq' && !hasRedis) {
    problems.push(
      "tasks.engine 'bullmq' needs the redis option (the Redis its queue and tasks live on)",
    );
  }
  for (const [name, value] of [
    ['ttl', ttl],
    ['pollInterval', pollInterval],
    ['concurrency', concurrency],
  ] as const) {
    if (value !== undefined && !positive(value)) {
      problems.push(`tasks.${name} must be a positive whole number`);
    }
  }
  if (
    queueName !== undefined &&
    (typeof queueName !== 'string' || !/^[\w.-]{1,100}$/.test(queueName))
  ) {
    problems.push(
      'tasks.queueName must be 1 to 100 letters, digits, _, . or -',
    );
  }
  return Object.freeze({
    engine,
    ttl: ttl ?? 3_600_000,
    pollInterval: pollInterval ?? 1000,
    queueName: queueName ?? 'nestops-mcp-tasks',
    concurrency: concurrency ?? 4,
  });
}
