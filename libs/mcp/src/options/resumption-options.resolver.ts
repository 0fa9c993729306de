import type { McpResumptionOptions } from '../interfaces/mcp-resumption-options.interface.js';

/** The defaults of the `resumption` option. */
export const RESUMPTION_DEFAULTS = Object.freeze({
  retainMs: 300_000,
  maxEventsPerStream: 1_000,
  maxEvents: 10_000,
  retryMs: 1_000,
  keyPrefix: 'nestops:mcp:streams:',
});

/** The `resumption` option with its defaults applied. */
export interface McpResumptionSettings {
  readonly retainMs: number;
  readonly maxEventsPerStream: number;
  readonly maxEvents: number;
  /** Undefined: connections are never closed early. */
  readonly closeAfterMs?: number;
  readonly retryMs: number;
  readonly keyPrefix: string;
}

/** The options that are counts (of milliseconds or events). */
const COUNTS = [
  'retainMs',
  'maxEventsPerStream',
  'maxEvents',
  'closeAfterMs',
  'retryMs',
] as const;

/**
 * `resumption` checked, each problem pushed to `problems`; undefined when
 * it is `false` (resumption off).
 */
export function resolveResumptionOptions(
  options: McpResumptionOptions | false | undefined,
  problems: string[],
): McpResumptionSettings | undefined {
  if (options === false) {
    return undefined;
  }
  if (options !== undefined && (typeof options !== 'object' || !options)) {
    problems.push('resumption must be an object of options, or false');
    return undefined;
  }
  const given = (options ?? {}) as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...RESUMPTION_DEFAULTS };
  for (const name of COUNTS) {
    const value = given[name];
    if (value === undefined) {
      continue;
    }
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      problems.push(`resumption.${name} must be a positive whole number`);
    }
    settings[name] = value;
  }
  if (given.keyPrefix !== undefined) {
    if (typeof given.keyPrefix !== 'string' || given.keyPrefix === '') {
      problems.push('resumption.keyPrefix must be a non-empty string');
    }
    settings.keyPrefix = given.keyPrefix;
  }
  if (
    (settings.maxEvents as number) < (settings.maxEventsPerStream as number)
  ) {
    problems.push(
      'resumption.maxEvents must be at least resumption.maxEventsPerStream',
    );
  }
  return Object.freeze(settings) as unknown as McpResumptionSettings;
}
