import { Logger } from '@nestjs/common';

/**
 * The levels of a call's log messages, lowest first: MCP's, the RFC 5424
 * syslog severities.
 *
 * @publicApi
 */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/**
 * One of `LOG_LEVELS`.
 *
 * @publicApi
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What a carrier delivers to the caller of a call's progress and log
 * messages (for MCP: `notifications/progress` with the request's progress
 * token, `notifications/message` at or above the level the client asked
 * for, on the call's response stream). A carrier that delivers nothing
 * passes none.
 *
 * @publicApi
 */
export interface CallReporter {
  /**
   * Delivers one progress report, if the caller asked for progress. The
   * invocation context has already dropped values that do not increase.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Delivers one log message if the caller asked for its level; false when
   * it was not delivered (the app's logger then writes it).
   */
  log(level: LogLevel, message: string, data?: unknown): boolean;
}

/** The `Logger` method of each level. */
const LOGGER_METHOD: Readonly<
  Record<LogLevel, 'debug' | 'log' | 'warn' | 'error'>
> = {
  debug: 'debug',
  info: 'log',
  notice: 'log',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** The progress and log methods of one call's invocation context. */
export interface CallReports {
  reportProgress(progress: number, total?: number, message?: string): void;
  log(level: LogLevel, message: string, data?: unknown): void;
}

/**
 * A call's `reportProgress` and `log`: progress goes to `reporter` only
 * when it increases (a decreasing, repeated or non-finite value is
 * dropped); a log message the reporter does not deliver goes to the app's
 * logger, under the operation's id. Neither ever throws.
 */
export function callReports(
  operationId: string,
  reporter: CallReporter | undefined,
): CallReports {
  let last = -Infinity;
  return {
    reportProgress(progress, total, message) {
      if (!Number.isFinite(progress) || progress <= last) {
        return;
      }
      last = progress;
      reporter?.progress(
        progress,
        typeof total === 'number' && Number.isFinite(total) ? total : undefined,
        typeof message === 'string' ? message : undefined,
      );
    },
    log(level, message, data) {
      if (reporter?.log(level, message, data)) {
        return;
      }
      const method = LOGGER_METHOD[level] ?? 'log';
      const text = data === undefined ? message : `${message} ${json(data)}`;
      new Logger(operationId)[method](text);
    },
  };
}

/** `data` as JSON text for a log line, or its string when it has none. */
function json(data: unknown): string {
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}
