// The contract
export { Operation } from './operation.decorator';
export type {
  Carrier,
  OperationOptions,
  OperationPolicy,
  OperationStability,
  TransactionIsolation,
  TransactionSetting,
} from './interfaces/operation-options.interface';
export type { OperationDefinition } from './interfaces/operation-definition.interface';
export type { OperationSemantics } from './operation-semantics';
export type { JsonSchema } from './schema/json-schema.interface';
export { OperationRegistry } from './operation.registry';
export { OperationsModule } from './operations.module';

// Running a call
export { OperationInvoker } from './operation.invoker';
export { getInvocationContext } from './invocation/get-invocation-context';
export { serializeCallResult } from './invocation/call-result';
export { correlationIdOf } from './invocation/invocation-context.factory';
export { isTenantId } from './invocation/tenant-id';
export type { InvocationContext } from './invocation/invocation-context.interface';
export type {
  InvocationOptions,
  InvocationResult,
} from './invocation/invocation-options.interface';
export { resultJson } from './invocation/output-contract';
export { AllowRawText } from './invocation/allow-raw-text.decorator';
export { INPUT_LIMITS } from './invocation/input-limits';
export type { InputLimits } from './invocation/input-limits';

// Errors
export { ContractError } from './errors/contract.error';
export { OPERATION_ERRORS } from './errors/error-codes';
export type { OperationErrorCode } from './errors/error-codes';
export { formatFailure } from './errors/operation-failure';
export type {
  OperationFailure,
  OperationViolation,
} from './errors/operation-failure';
export { OperationException } from './errors/operation.exception';
export type { OperationExceptionOptions } from './errors/operation.exception';
// Languages
export { OperationMessages } from './i18n/operation-messages';
export { MESSAGE_NAMESPACE } from './i18n/library-messages';
export type { ValidationMessageKey } from './i18n/library-messages';
