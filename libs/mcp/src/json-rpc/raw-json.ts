import type { JsonRpcResponse } from './json-rpc.types';

/**
 * A JSON value whose text is already written (a tool list prepared at
 * startup, a call's result serialised once): a response carrying it as its
 * `result` is written around that text, never serialised again.
 */
export class RawJson {
  constructor(readonly text: string) {}

  /** For anything that serialises a response by itself: the value read back. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }

  /**
   * This object's members between `before` and `after` ones, as one object;
   * `text` must be a JSON object with at least one member.
   */
  static wrap(
    text: string,
    before: string | undefined,
    after: string | undefined,
  ): RawJson {
    return new RawJson(
      `{${before ? `${before},` : ''}${text.slice(1, -1)}${after ? `,${after}` : ''}}`,
    );
  }
}

/** The JSON text of a response or a batch of them. */
export function stringifyRpc(
  body: JsonRpcResponse | readonly JsonRpcResponse[],
): string {
  return Array.isArray(body)
    ? `[${(body as readonly JsonRpcResponse[]).map(stringifyOne).join(',')}]`
    : stringifyOne(body as JsonRpcResponse);
}

function stringifyOne(response: JsonRpcResponse): string {
  return 'result' in response && response.result instanceof RawJson
    ? `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${response.result.text}}`
    : JSON.stringify(response);
}

/** A response's `result` as a value, for in-process readers (the test kit). */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? JSON.parse(result.text) : result;
}
