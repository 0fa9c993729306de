import type { McpAskingOptions } from '../interfaces/mcp-asking-options.interface.js';
import { MIN_STATE_KEY_LENGTH } from './request-state.js';

/** The default `asking.stateTtl`: 10 minutes. */
export const DEFAULT_STATE_TTL = 600_000;

/** The `asking` option with its defaults. */
export interface McpAskingSettings {
  readonly stateKeys: readonly string[];
  readonly stateTtl: number;
  readonly confirm?: 'destructive';
  readonly runUnconfirmed: boolean;
}

/** `asking` checked, each problem pushed to `problems`. */
export function resolveAskingOptions(
  options: McpAskingOptions | undefined,
  problems: string[],
): McpAskingSettings {
  const { stateKeys = [], stateTtl, confirm, runUnconfirmed } = options ?? {};
  if (
    !Array.isArray(stateKeys) ||
    stateKeys.some(
      (key) => typeof key !== 'string' || key.length < MIN_STATE_KEY_LENGTH,
    )
  ) {
    problems.push(
      `asking.stateKeys must be a list of secrets of at least ${MIN_STATE_KEY_LENGTH} characters (openssl rand -base64 32)`,
    );
  }
  if (
    stateTtl !== undefined &&
    (!Number.isSafeInteger(stateTtl) || stateTtl < 1)
  ) {
    problems.push(
      'asking.stateTtl must be a positive whole number of milliseconds',
    );
  }
  if (confirm !== undefined && confirm !== 'destructive') {
    problems.push("asking.confirm must be 'destructive' or left out");
  }
  if (runUnconfirmed !== undefined && typeof runUnconfirmed !== 'boolean') {
    problems.push('asking.runUnconfirmed must be true or false');
  }
  return Object.freeze({
    stateKeys: Object.freeze([...(Array.isArray(stateKeys) ? stateKeys : [])]),
    stateTtl: stateTtl ?? DEFAULT_STATE_TTL,
    ...(confirm === 'destructive' ? { confirm } : {}),
    runUnconfirmed: runUnconfirmed === true,
  });
}
