import { Callable, OPERATION_KIND } from '@nestops/operations/internal';
import {
  COMPLETER_KIND,
  completerId,
  PROMPT_KIND,
} from '../prompts/prompt.constants.js';
import { CompletionRequest } from './completion-request.js';

/**
 * Declares a provider method as the completer of one argument: of a
 * prompt (`target` its name) or of a resource template's variable
 * (`target` the operation id, which has a `.`). It receives a
 * `CompletionRequest` and returns the values (at most 100 are sent). It
 * runs with the caller's rights: the app's guards, then the permissions
 * and policy of its target, so `request.user` and the invocation
 * context's principal and tenant are the caller's.
 *
 * ```ts
 * @Complete('orders.get', 'id')
 * orderIds(request: CompletionRequest, context: InvocationContext): Promise<string[]> { ... }
 * ```
 *
 * @publicApi
 */
export const Complete = (target: string, argument: string): MethodDecorator =>
  Callable({
    kind: COMPLETER_KIND,
    id: completerId(target, argument),
    input: CompletionRequest,
    expose: ['mcp'],
    like: {
      kind: target.includes('.') ? OPERATION_KIND : PROMPT_KIND,
      id: target,
    },
  });
