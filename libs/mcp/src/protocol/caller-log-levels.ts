import { createHash } from 'node:crypto';
import type { CallerLogging } from './mcp-caller.context.js';

/** How many callers' levels an instance keeps; the least recently set goes first. */
const MAX_CALLERS = 10_000;

/**
 * The log levels 2025 callers set with `logging/setLevel` over HTTP, on
 * this instance, by caller (see `callerOf`): a stateless endpoint has no
 * session to keep them in, so one caller's level holds for its later
 * POSTs here, never for another caller's, and not on another instance of
 * the app. Bounded: past `MAX_CALLERS` the level set longest ago is
 * forgotten; a caller is kept as the SHA-256 of its text, so the memory a
 * level takes does not grow with the caller's `Authorization` header.
 */
export class CallerLogLevels {
  private readonly levels = new Map<string, string>();

  constructor(private readonly max = MAX_CALLERS) {}

  /** The level of caller `who`, read and set through the returned holder. */
  of(who: string): CallerLogging {
    return new CallerLevel(this.levels, this.max, who);
  }
}

/** One caller's level in the map; its key is hashed when first needed. */
class CallerLevel implements CallerLogging {
  private key?: string;

  constructor(
    private readonly levels: Map<string, string>,
    private readonly max: number,
    private readonly who: string,
  ) {}

  get level(): string | undefined {
    // No caller has set a level: nothing to look up.
    return this.levels.size === 0 ? undefined : this.levels.get(this.keyOf());
  }

  set level(level: string | undefined) {
    const { levels } = this;
    levels.delete(this.keyOf());
    if (level === undefined) {
      return;
    }
    levels.set(this.keyOf(), level);
    if (levels.size > this.max) {
      levels.delete(levels.keys().next().value as string);
    }
  }

  private keyOf(): string {
    return (this.key ??= createHash('sha256')
      .update(this.who)
      .digest('base64'));
  }
}
