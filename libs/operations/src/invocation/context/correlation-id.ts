import { randomUUID } from 'node:crypto';
import type { InvocationOptions } from '../call/invocation-options.interface.js';

/** What a caller's correlation id may be: 1 to 128 visible ASCII characters. */
const IDENTIFIER = /^[\x21-\x7e]{1,128}$/;

/**
 * The correlation id of a call: the caller's `X-Correlation-Id` when it is 1
 * to 128 visible ASCII characters, else a new UUID. Carriers use it for
 * their own logs too, so one id names a call everywhere.
 *
 * @publicApi
 */
export function correlationIdOf(headers: InvocationOptions['headers']): string {
  const given = single(headers['x-correlation-id']);
  return given !== undefined && IDENTIFIER.test(given) ? given : randomUUID();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
