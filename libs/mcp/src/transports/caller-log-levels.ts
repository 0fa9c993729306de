import type { CallerLogging } from '../mcp-caller.context.js';

/** How many callers' levels an instance keeps; the least recently set goes first. */
const MAX_CALLERS = 10_000;

/**
 * The log levels 2025 callers set with `logging/setLevel` over HTTP, on
 * this instance, by caller (see `callerOf`): a stateless endpoint has no
 * session to keep them in, so one caller's level holds for its later
 * POSTs here, never for another caller's, and not on another instance of
 * the app. Bounded: past `MAX_CALLERS` the level set longest ago is
 * forgotten.
 */
export class CallerLogLevels {
  private readonly levels = new Map<string, string>();

  constructor(private readonly max = MAX_CALLERS) {}

  /** The level of caller `who`, read and set through the returned holder. */
  of(who: string): CallerLogging {
    const levels = this.levels;
    const max = this.max;
    return {
      get level() {
        return levels.get(who);
      },
      set level(level: string | undefined) {
        levels.delete(who);
        if (level === undefined) {
          return;
        }
        levels.set(who, level);
        if (levels.size > max) {
          levels.delete(levels.keys().next().value as string);
        }
      },
    };
  }
}
