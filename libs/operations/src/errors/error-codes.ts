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
  SECURITY_THROTTLED_001: 'Too many calls; retry in {retryAfter} s.',
  BUSINESS_NOTFOUND_001: '{detail}',
  BUSINESS_CONFLICT_001: '{detail}',
  BUSINESS_REJECTED_001: '{detail}',
  BUSINESS_CLIENT_001:
    'This call asks the client for {capability}, which the client cannot answer.',
  BUSINESS_CLIENT_002:
    'The client gave no usable answer to {question}: {detail}',
  BUSINESS_DECLINED_001: 'The user declined {operation}; nothing was done.',
  BUSINESS_DECLINED_002: 'The user cancelled {operation}; nothing was done.',
  SECURITY_CONFIRMATION_001:
    "{operation} needs the user's confirmation, which this client cannot ask for.",
  INTERNAL_TIMEOUT_001: 'The operation did not finish within {seconds} s.',
  INTERNAL_CANCELLED_001: 'The call was cancelled.',
  INTERNAL_INPUT_001: 'The call stopped to ask its client: {questions}.',
  INTERNAL_TASK_001: 'The call goes on as task {taskId}.',
  INTERNAL_ERROR_001:
    'An unexpected error occurred (correlation id {correlationId}).',
  INTERNAL_ERROR_002: '{detail}',
  INTERNAL_UNAVAILABLE_001: 'The service is unavailable; retry later.',
  INTERNAL_UNAVAILABLE_002:
    'The database stayed locked by another connection for {seconds} s; retry later.',
  INTERNAL_CONTRACT_001:
    'An interceptor of the app changed the result of {operation} so that it no longer matches its output contract (correlation id {correlationId}). To leave tool calls alone, begin its intercept() with: if (isOperationCall(context)) return next.handle();',
} as const;

/** A failure code of the catalogue `OPERATION_ERRORS`. */
export type OperationErrorCode = keyof typeof OPERATION_ERRORS;

/** The code of a failure: one of the catalogue, or the app's own of its form. */
export type OperationFailureCode =
  OperationErrorCode | `${Uppercase<string>}_${Uppercase<string>}_${number}`;
