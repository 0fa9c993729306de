/**
 * How `McpServerLifecycleModule` takes the app's HTTP server out of
 * service.
 *
 * @publicApi
 */
export interface McpServerLifecycleOptions {
  /**
   * How long, in milliseconds, the app serves on once it begins closing
   * (`app.close()`, or a signal with `enableShutdownHooks()`) while
   * `readinessPath` answers `503`, so that a load balancer stops sending it
   * work before it stops taking connections. A whole number, `0` or more.
   * Default: 0.
   */
  shutdownDrainDelay?: number;
  /**
   * How long, in milliseconds, after the drain delay the HTTP server's
   * connections may take to close. The server stops accepting connections,
   * answers every request it is sent on the ones left with
   * `Connection: close`, closes idle ones between requests, and drops those
   * still open when the period ends; only then do the shutdown hooks after
   * the module's own `onModuleDestroy` run (see the module) and the MCP
   * endpoint answer `503`. `0` drops them at once.
   * Default: 10 000.
   */
  shutdownGracePeriod?: number;
  /**
   * A `GET` path that answers `200 {"status":"ready"}` while the app serves
   * and `503` (`{"status":"starting"}` or `{"status":"leaving"}`) before the
   * app has bootstrapped (see the module) and from the moment it begins closing, for a
   * load balancer's or orchestrator's readiness check. Served without
   * authentication, outside the app's controllers. Default: none.
   */
  readinessPath?: string;
}

/** The options with their defaults. */
export interface LifecycleSettings {
  readonly shutdownDrainDelay: number;
  readonly shutdownGracePeriod: number;
  readonly readinessPath?: string;
}

/** `shutdownGracePeriod` when not set: 10 seconds. */
export const DEFAULT_SHUTDOWN_GRACE_PERIOD = 10_000;
/** The longest delay Node's timers take. */
const MAX_TIMER_DELAY = 2_147_483_647;
/** A URL path as `readinessPath` takes it. */
const URL_PATH = /^\/[A-Za-z0-9._~/-]*$/;

/** Applies the defaults, or throws a message naming each bad option. */
export function resolveLifecycleOptions(
  options: McpServerLifecycleOptions = {},
): LifecycleSettings {
  const problems: string[] = [];
  const delay = (key: 'shutdownGracePeriod' | 'shutdownDrainDelay') => {
    const value = options[key];
    if (
      value !== undefined &&
      (typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 0 ||
        value > MAX_TIMER_DELAY)
    ) {
      problems.push(
        `${key} must be a whole number of milliseconds from 0 to ${MAX_TIMER_DELAY}`,
      );
    }
    return value;
  };
  const grace = delay('shutdownGracePeriod');
  const drainDelay = delay('shutdownDrainDelay');
  const ready = options.readinessPath;
  if (
    ready !== undefined &&
    (typeof ready !== 'string' || !URL_PATH.test(ready))
  ) {
    problems.push(
      `readinessPath must be a URL path starting with '/' (got ${JSON.stringify(ready)})`,
    );
  }
  if (problems.length > 0) {
    throw new Error(
      `Invalid McpServerLifecycleModule options: ${problems.join('; ')}.`,
    );
  }
  return Object.freeze({
    shutdownGracePeriod: grace ?? DEFAULT_SHUTDOWN_GRACE_PERIOD,
    shutdownDrainDelay: drainDelay ?? 0,
    readinessPath: ready,
  });
}
