/**
 * How operations with `@Operation({ task })` run as MCP tasks
 * (`McpModule.forRoot({ tasks })`).
 *
 * @publicApi
 */
export interface McpTasksOptions {
  /**
   * Where tasks run and their state is kept: `memory`, in this process
   * (one instance; a task ends with it); `bullmq`, as jobs of a BullMQ
   * queue on the module's `redis` (any instance runs, answers and cancels
   * any task; a task whose instance died is taken up by another). Default:
   * `memory`. `bullmq` needs the `redis` option and the optional peer
   * `bullmq` (5 or 6).
   */
  readonly engine?: 'memory' | 'bullmq';
  /**
   * How long a task and its result are kept after it was created, in
   * milliseconds (the task's `ttlMs`). Default: 3 600 000 (one hour).
   */
  readonly ttl?: number;
  /** The polling interval suggested to clients, in milliseconds. Default: 1000. */
  readonly pollInterval?: number;
  /**
   * The BullMQ queue's name (`bullmq` engine). Default: `nestops-mcp-tasks`.
   */
  readonly queueName?: string;
  /**
   * How many tasks one instance runs at once (`bullmq` engine). Default: 4.
   */
  readonly concurrency?: number;
}
