import type { ClientCapability } from '@nestops/operations';

/**
 * Whether `capabilities`, as a client declares them (`initialize`'s, or a
 * 2026-07-28 request's `clientCapabilities`), answer `capability`: an
 * `elicitation` object for forms (2025-11-25's `elicitation: {}` means
 * forms), with `url` for pages; `sampling`; `roots`.
 */
export function canAnswer(
  capabilities: Readonly<Record<string, unknown>>,
  capability: ClientCapability,
): boolean {
  const elicitation = capabilities.elicitation as
    Readonly<Record<string, unknown>> | undefined;
  switch (capability) {
    case 'elicitation':
      return (
        isObject(elicitation) &&
        (elicitation.url === undefined || elicitation.form !== undefined)
      );
    case 'elicitation.url':
      return isObject(elicitation) && isObject(elicitation.url);
    default:
      return isObject(capabilities[capability]);
  }
}

/** The capabilities missing of `required`, as MCP's `requiredCapabilities` names them. */
export function missingCapabilities(
  capabilities: Readonly<Record<string, unknown>>,
  required: readonly ClientCapability[],
): Record<string, object> {
  const missing: Record<string, object> = {};
  for (const capability of required) {
    if (!canAnswer(capabilities, capability)) {
      if (capability === 'elicitation.url') {
        missing.elicitation = { url: {} };
      } else {
        missing[capability] = {};
      }
    }
  }
  return missing;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
