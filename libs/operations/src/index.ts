/**
 * `@nestops/operations`: declare a provider method once with `@Operation()`
 * and run it from any carrier (MCP, the command line) through the app's own
 * guards, pipes and interceptors, with its error catalogue and languages.
 *
 * @packageDocumentation
 */

// The contract
export { Operation } from './operation.decorator.js';
export type {
  Carrier,
  OperationOptions,
  OperationPolicy,
  OperationStability,
  TransactionIsolation,
  TransactionSetting,
} from './interfaces/operation-options.interface.js';
export type { OperationDefinition } from './interfaces/operation-definition.interface.js';
export type { OperationSemantics } from './operation-semantics.js';
export type { JsonSchema } from './schema/json-schema.interface.js';
export { JSONSchema } from './schema/json-schema.decorator.js';
export { OperationRegistry } from './operation.registry.js';
export {
  heldPermissions,
  principalPermissions,
} from './authorization/principal-permissions.js';
export type { PermissionsOf } from './authorization/principal-permissions.js';
export { OperationsModule } from './operations.module.js';

// Running a call
export type { AppSetup } from './interfaces/app-setup.interface.js';
export { OperationInvoker } from './operation.invoker.js';
export {
  getInvocationContext,
  isOperationCall,
} from './invocation/context/get-invocation-context.js';
export { correlationIdOf } from './invocation/context/invocation-context.factory.js';
export { isTenantId } from './invocation/context/tenant-id.js';
export type { InvocationContext } from './invocation/context/invocation-context.interface.js';
export type {
  CancelSignal,
  CarrierRequest,
  InvocationOptions,
  InvocationRecord,
  InvocationResult,
} from './invocation/call/invocation-options.interface.js';
export type { SerializedResult } from './invocation/output/output-contract.js';
export type { ResponseStream } from './invocation/context/response-stream.js';
export { LOG_LEVELS } from './invocation/context/call-reporter.js';
export type {
  CallReporter,
  LogLevel,
} from './invocation/context/call-reporter.js';
export { INVOCATION_DEFAULTS } from './invocation/call/invocation-defaults.js';
export type { InvocationDefaults } from './invocation/call/invocation-defaults.js';
export { AllowRawText } from './invocation/input/allow-raw-text.decorator.js';
export { INPUT_LIMITS } from './invocation/input/input-limits.js';
export type { InputLimits } from './invocation/input/input-limits.js';

// Errors
export { ContractError } from './errors/contract.error.js';
export { OPERATION_ERRORS } from './errors/error-codes.js';
export type {
  OperationErrorCode,
  OperationFailureCode,
} from './errors/error-codes.js';
export { formatFailure } from './errors/operation-failure.js';
export type {
  OperationFailure,
  OperationViolation,
} from './errors/operation-failure.js';
export { OperationException } from './errors/operation.exception.js';
export { OperationRefusedError } from './errors/operation-refused.error.js';
export type { OperationRefusal } from './errors/operation-refused.error.js';
export type { OperationExceptionOptions } from './errors/operation.exception.js';
// Languages
export { OperationMessages } from './i18n/operation-messages.js';
export { MESSAGE_NAMESPACE } from './i18n/library-messages.js';
export { OperationTexts } from './i18n/operation-texts.js';
export type { LocalizedOperation } from './i18n/operation-texts.js';
export {
  DTO_NAMESPACE,
  operationTextKeys,
  propertyDescriptionKey,
} from './i18n/operation-text-keys.js';
export type { ValidationMessageKey } from './i18n/library-messages.js';
