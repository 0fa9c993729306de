/**
 * The catalogue of operation failure codes, `<AREA>_<KIND>_<NNN>`, with the
 * English text of each. A text may name parameters in braces (`{permission}`).
 *
 * @publicApi
 */
export const OPERATION_ERRORS = {
  VALIDATION_INVALID_001: 'Invalid input: {detail}',
  SECURITY_DENIED_001: 'Access denied.',
  SECURITY_DENIED_002: 'The policy of this operation denied the call.',
  SECURITY_DENIED_003: 'Authentication is required.',
  SECURITY_DENIED_004: "Permission '{permission}' is missing.",
  SECURITY_DENIED_005: "Tenant '{tenant}' is not one of the caller's tenants.",
  BUSINESS_NOTFOUND_001: '{detail}',
  BUSINESS_CONFLICT_001: '{detail}',
  BUSINESS_REJECTED_001: '{detail}',
  INTERNAL_TIMEOUT_001: 'The operation did not finish within {seconds} s.',
  INTERNAL_CANCELLED_001: 'The call was cancelled.',
  INTERNAL_ERROR_001:
    'An unexpected error occurred (correlation id {correlationId}).',
} as const;

/**
 * A failure code of the catalogue `OPERATION_ERRORS`: what an
 * `OperationException` and an `OperationFailure` carry.
 *
 * @publicApi
 */
export type OperationErrorCode = keyof typeof OPERATION_ERRORS;
