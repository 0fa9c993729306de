/**
 * `@nestops/operations/internal`: what the nestops carriers (`@nestops/mcp`)
 * and units of work (`@nestops/typeorm`) need of the core, and nothing an
 * app types. @internal by contract: no API report, no compatibility promise
 * between versions; an app imports `@nestops/operations` instead.
 *
 * @packageDocumentation
 */

// The declaration build (`stripInternal`) drops the statement that the
// comment above leads, since it says @internal: this empty one.
export {};

// The carrier port: running a call
export { OperationInvoker } from '../operation.invoker.js';
export type {
  CallHooks,
  CarrierCancel,
  CarrierRequest,
  InvocationOptions,
  InvocationRecord,
} from '../invocation/call/invocation-options.interface.js';
export { callHooksOf } from '../invocation/call/call-hooks.js';
export { OperationArgumentsHost } from '../invocation/pipeline/operation-arguments-host.js';
export { markCarried } from '../invocation/output/carried-result.js';
export type { ResponseStream } from '../invocation/context/response-stream.js';
export { confirmsEachCall } from '../asking/confirmation.js';
export type {
  CallAsker,
  ClientCapability,
  ClientQuestion,
  ClientQuestionMethod,
} from '../asking/client-questions.js';
export { LOG_LEVELS } from '../invocation/context/call-reporter.js';
export type {
  CallReporter,
  LogLevel,
} from '../invocation/context/call-reporter.js';
export { correlationIdOf } from '../invocation/context/correlation-id.js';
export {
  OperationRefusedError,
  type OperationRefusal,
} from '../errors/operation-refused.error.js';

// Callables of other kinds (a carrier's prompts, completers)
export { Callable, callableKey, OPERATION_KIND } from '../callable.js';
export type { CallableOptions } from '../callable.js';

// The unit-of-work port
export { unitOfWorkOf } from '../invocation/call/call-unit-of-work.js';
export type { CallUnitOfWork } from '../invocation/call/call-unit-of-work.js';
export {
  COMMITTED_RESULTS,
  type CommittedResults,
} from '../invocation/call/committed-results.js';
export type { SerializedResult } from '../invocation/output/output-contract.js';
export type {
  OperationDefinition,
  TransactionSetting,
} from '../interfaces/operation-contract.js';
export type { TransactionIsolation } from '../interfaces/operation-contract.js';

// What a carrier module provides and reads
export { OperationRegistry } from '../operation.registry.js';
export { INVOCATION_DEFAULTS } from '../invocation/call/invocation-defaults.js';
export type {
  InvocationDefaults,
  TenantOf,
} from '../invocation/call/invocation-defaults.js';
export { INPUT_LIMITS } from '../invocation/input/input-limits.js';
export type { InputLimits } from '../invocation/input/input-limits.js';
export {
  heldPermissions,
  principalPermissions,
} from '../authorization/principal-permissions.js';
export type { PermissionsOf } from '../authorization/principal-permissions.js';
export type { OperationSemantics } from '../operation-semantics.js';

// Errors and languages
export { ContractError } from '../errors/contract.error.js';
export { formatFailure } from '../errors/failure-text.js';
export type {
  OperationErrorCode,
  OperationFailureCode,
} from '../errors/error-codes.js';
export { OperationMessages } from '../i18n/operation-messages.js';
export { MESSAGE_NAMESPACE } from '../i18n/library-messages.js';
export type { ValidationMessageKey } from '../i18n/library-messages.js';
export { OperationTexts } from '../i18n/operation-texts.js';
export type { LocalizedOperation } from '../i18n/operation-texts.js';
export {
  DTO_NAMESPACE,
  operationTextKeys,
  propertyDescriptionKey,
} from '../i18n/operation-text-keys.js';

// The test kits
export { carrierHeaders } from '../testing/test-headers.js';
