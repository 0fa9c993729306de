import type { IncomingHttpHeaders } from 'node:http';
import type { McpCall } from '../../protocol/mcp-call.js';

/** A principal's id (the `telemetry.principalId` option), or undefined. */
export type PrincipalIdOf = (principal: unknown) => string | undefined;

/**
 * Who a 2025 POST comes from, as far as its session goes (cancelling its
 * calls, its log level, answering the server's requests), so one caller
 * can never reach another's calls: the principal the endpoint's
 * `authGuard` authenticated, by its id; else, where the app authenticates
 * each call itself, the credentials (their scheme in any case, the
 * spaces around them ignored); else the address.
 */
export function callerOf(
  principal: unknown,
  principalId: PrincipalIdOf,
  headers: IncomingHttpHeaders,
  address: string | undefined,
): string {
  const id = principal === undefined ? undefined : principalId(principal);
  if (id !== undefined) {
    return `principal ${id}`;
  }
  const credentials = headers.authorization?.trim();
  if (credentials) {
    const [scheme, ...rest] = credentials.split(/\s+/);
    return `credentials ${scheme.toLowerCase()} ${rest.join(' ')}`;
  }
  return `address ${address ?? ''}`;
}

/** Who sends `call`, as `callerOf` says it, from its transport's caller. */
export function callerOfCall(
  call: McpCall,
  principalId: PrincipalIdOf,
): string {
  const { caller } = call.transport;
  return callerOf(
    caller.principal,
    principalId,
    caller.headers as IncomingHttpHeaders,
    caller.request?.ip,
  );
}
