import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import { type SerializedResult, serializeResult } from './output-contract.js';

/**
 * The serialisation of one call's result, owned by the call: an
 * interceptor that serialises the result early (through its invocation
 * context's `serializeResult`, e.g. a transaction interceptor before it
 * commits) and the invoker once the call returns share it, so a result
 * the call returns unchanged is serialised once.
 */
export class CallSerializer {
  private last?: { readonly value: unknown; readonly result: SerializedResult };

  constructor(private readonly definition: OperationDefinition) {}

  /** `value` serialised under the operation's output contract; the value last serialised: that very result. */
  serialize(value: unknown): SerializedResult {
    const last = this.last;
    if (last && last.value === value) {
      return last.result;
    }
    const result = serializeResult(this.definition, value);
    this.last = { value, result };
    return result;
  }
}
