import {
  type CallReporter,
  LOG_LEVELS,
  type LogLevel,
  type ResponseStream,
} from '@nestops/operations/internal';
import { isRecord } from '../json-rpc/json-rpc-envelope.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { CallerLogging } from './mcp-caller.context.js';
import { isLogLevel } from './protocol-revision.js';

/**
 * `logging/setLevel`: the level kept in `logging` (where the caller's
 * transport keeps it: its stdio session; over HTTP, its caller on this
 * instance), for the log messages of its later 2025 calls; `{}`. A level
 * that is not one of MCP's is `-32602`.
 */
export function setLogLevel(
  params: Readonly<Record<string, unknown>>,
  logging: CallerLogging | undefined,
): object {
  const { level } = params;
  if (!isLogLevel(level)) {
    throw McpProtocolError.badLogLevel(LOG_LEVELS);
  }
  if (logging) {
    logging.level = level;
  }
  return {};
}

/**
 * The MCP reporter of one `tools/call`: its progress as
 * `notifications/progress` with the request's `_meta.progressToken` (echoed
 * exactly), its log messages as `notifications/message` when `logLevel`
 * (what the client asked for) is at or below theirs, both on the call's
 * response stream. Undefined when the request asks for neither or has no
 * stream: the call's progress is then dropped and its log messages go to
 * the app's logger.
 */
export function mcpCallReporter(
  params: Readonly<Record<string, unknown>>,
  logLevel: string | undefined,
  stream: ResponseStream | undefined,
): CallReporter | undefined {
  const meta = params._meta;
  const token = isRecord(meta) ? meta.progressToken : undefined;
  const hasToken =
    typeof token === 'string' ||
    (typeof token === 'number' && Number.isFinite(token));
  const threshold =
    logLevel === undefined ? -1 : LOG_LEVELS.indexOf(logLevel as LogLevel);
  if (!stream || (!hasToken && threshold < 0)) {
    return undefined;
  }
  return {
    progress(progress, total, message) {
      if (!hasToken) {
        return;
      }
      stream.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    },
    log(level, message, data) {
      if (threshold < 0 || LOG_LEVELS.indexOf(level) < threshold) {
        return false;
      }
      if (!stream.open) {
        return false;
      }
      stream.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: {
          level,
          data: data === undefined ? message : { message, data },
        },
      });
      return true;
    },
  };
}
