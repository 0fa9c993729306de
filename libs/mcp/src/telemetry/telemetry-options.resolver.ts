import type {
  McpAuditSink,
  McpTelemetryOptions,
} from '../interfaces/mcp-telemetry-options.interface.js';

/** The `telemetry` option with every default applied. */
export interface McpTelemetrySettings {
  /** `true`: the Nest logger; undefined: no audit trail. */
  readonly audit?: true | McpAuditSink;
  readonly auditArguments: boolean;
  readonly recordPrincipal: boolean;
  readonly principalId: (principal: unknown) => string | undefined;
}

/**
 * Checks the `telemetry` option, adding a line to `problems` for each bad
 * member; its settings (the defaults where it is left out or bad).
 */
export function resolveTelemetryOptions(
  given: McpTelemetryOptions | undefined,
  problems: string[],
): McpTelemetrySettings {
  const options = given ?? {};
  if (
    typeof options !== 'object' ||
    options === null ||
    Array.isArray(options)
  ) {
    problems.push('telemetry must be an object');
    return resolveTelemetryOptions(undefined, problems);
  }
  const { audit, principalId } = options;
  if (
    audit !== undefined &&
    typeof audit !== 'boolean' &&
    (typeof audit !== 'object' ||
      audit === null ||
      typeof (audit as Partial<McpAuditSink>).record !== 'function')
  ) {
    problems.push(
      'telemetry.audit must be true, false or a sink with a record(event) method',
    );
  }
  const flag = (key: 'auditArguments' | 'recordPrincipal') => {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      problems.push(`telemetry.${key} must be a boolean`);
    }
    return options[key] === true;
  };
  if (principalId !== undefined && typeof principalId !== 'function') {
    problems.push('telemetry.principalId must be a function of the principal');
  }
  return Object.freeze({
    audit: audit === true || typeof audit === 'object' ? audit : undefined,
    auditArguments: flag('auditArguments'),
    recordPrincipal: flag('recordPrincipal'),
    principalId:
      typeof principalId === 'function' ? principalId : defaultPrincipalId,
  });
}

/**
 * A principal's id by default: its `id` (a string or a number), else its
 * `sub` (a JWT's subject); undefined for anything else.
 */
export function defaultPrincipalId(principal: unknown): string | undefined {
  if (typeof principal !== 'object' || principal === null) {
    return undefined;
  }
  const { id, sub } = principal as { id?: unknown; sub?: unknown };
  if (typeof id === 'string' || typeof id === 'number') {
    return String(id);
  }
  return typeof sub === 'string' ? sub : undefined;
}
