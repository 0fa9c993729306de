import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import { carriedPart } from './carried-result.js';
import { type SerializedResult, serializeResult } from './output-contract.js';

/**
 * The serialisation of one call's result, owned by the call: an
 * interceptor that serialises the result early (through its invocation
 * context's `serializeResult`, e.g. a transaction interceptor before it
 * commits) and the invoker once the call returns share it, so a result
 * the call returns unchanged is serialised once. A result wrapped for its
 * carrier (`markCarried`) is serialised by its structured part, and the
 * wrapper kept as `carried`.
 */
export class CallSerializer {
  private last?: { readonly value: unknown; readonly result: SerializedResult };

  constructor(private readonly definition: OperationDefinition) {}

  /** The JSON text of the value last serialised; undefined: none yet. */
  get lastJson(): string | undefined {
    return this.last?.result.json;
  }

  /** `value` serialised under the operation's output contract; the value last serialised: that very result. */
  serialize(value: unknown): SerializedResult {
    const last = this.last;
    if (last && last.value === value) {
      return last.result;
    }
    const part = carriedPart(value);
    const result = part
      ? {
          ...serializeResult(this.definition, part.value),
          carried: value as object,
        }
      : serializeResult(this.definition, value);
    this.last = { value, result };
    return result;
  }
}
