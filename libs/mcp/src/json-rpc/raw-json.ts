import type { JsonRpcResponse } from './json-rpc.types.js';

/**
 * A JSON value whose text is already written (a tool list prepared at
 * startup, a call's result serialised once): a response carrying it as its
 * `result` is written around that text, never serialised again.
 */
export class RawJson {
  private encoded?: Buffer;

  /** `reused`: sent many times (a prepared tool list), so worth its bytes. */
  constructor(
    readonly text: string,
    readonly reused = false,
  ) {}

  /** The text as UTF-8, encoded once (a prepared result is sent many times). */
  get bytes(): Buffer {
    return (this.encoded ??= Buffer.from(this.text, 'utf8'));
  }

  /** For anything that serialises a response by itself: the value read back. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * The parts of a single response whose result is prepared: the envelope
 * around the result's bytes, which are written as they are.
 */
export function preparedParts(
  body: JsonRpcResponse | readonly JsonRpcResponse[],
): { readonly head: string; readonly result: Buffer } | undefined {
  if (Array.isArray(body)) {
    return undefined;
  }
  const response = body as JsonRpcResponse;
  return 'result' in response &&
    response.result instanceof RawJson &&
    response.result.reused
    ? {
        head: responseHead(response),
        result: response.result.bytes,
      }
    : undefined;
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
    ? `${responseHead(response)}${response.result.text}}`
    : JSON.stringify(response);
}

/** A success response's text up to its `result`'s value. */
function responseHead(response: JsonRpcResponse): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`;
}

/** A response's `result` as a value, for in-process readers (the test kit). */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? JSON.parse(result.text) : result;
}
