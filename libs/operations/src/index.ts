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
  OperationTaskSupport,
} from './interfaces/operation-contract.js';
export type {
  OperationResource,
  OperationResourceOptions,
} from './interfaces/operation-resource.interface.js';
export type { OperationDefinition } from './interfaces/operation-contract.js';
export type { JsonSchema } from './schema/json-schema.interface.js';
export { JSONSchema } from './schema/json-schema.decorator.js';
export { AllowRawText } from './invocation/input/allow-raw-text.decorator.js';
export { SafeInputPipe } from './invocation/input/safe-input.pipe.js';
export { OperationsModule } from './operations.module.js';

// Running a call
export type { AppSetup } from './interfaces/app-setup.interface.js';
export {
  getInvocationContext,
  isOperationCall,
} from './invocation/context/get-invocation-context.js';
export type { InvocationContext } from './interfaces/operation-contract.js';
export type { InvocationResult } from './invocation/call/invocation-options.interface.js';
export type {
  AskOptions,
  ClientCapability,
  ClientQuestions,
  OperationAsks,
  ClientRoot,
  Elicited,
  SampledMessage,
  SamplingMessage,
  SamplingRequest,
} from './asking/client-questions.js';

// Errors
export { OPERATION_ERRORS } from './errors/error-codes.js';
export type {
  OperationFailure,
  OperationViolation,
} from './errors/operation-failure.js';
export { OperationException } from './errors/operation.exception.js';
