import type { JsonRpcResponse } from '../json-rpc/json-rpc.types.js';

// The text of answers, apart from the writer (which Nest injects): what the
// stdio host's first answers need, loaded before the app.

/**
 * A JSON value whose text is already written (a tool list prepared once, a
 * call's result serialised once): a response carrying it as its `result` is
 * written around that text, never serialised again.
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
 * The JSON text of a response, a batch of them, or a message sent ahead of
 * one: a prepared result's text is written in place, never serialised again.
 */
export function answerText(
  body: JsonRpcResponse | readonly JsonRpcResponse[] | object,
): string {
  return Array.isArray(body)
    ? `[${(body as readonly JsonRpcResponse[]).map(textOfOne).join(',')}]`
    : textOfOne(body);
}

/**
 * A single response whose result is prepared and sent many times (a tool
 * list), as the envelope's text around the result's bytes, which are written
 * as they are, not copied; undefined for any other answer.
 */
export function answerParts(
  body: JsonRpcResponse | readonly JsonRpcResponse[],
): readonly [string, Buffer, string] | undefined {
  if (Array.isArray(body)) {
    return undefined;
  }
  const response = body as JsonRpcResponse;
  return 'result' in response &&
    response.result instanceof RawJson &&
    response.result.reused
    ? [responseHead(response), response.result.bytes, '}']
    : undefined;
}

function textOfOne(message: object): string {
  return 'result' in message && message.result instanceof RawJson
    ? `${responseHead(message as JsonRpcResponse)}${message.result.text}}`
    : JSON.stringify(message);
}

/** A success response's text up to its `result`'s value. */
function responseHead(response: JsonRpcResponse): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":`;
}

/** A response's `result` as a value, for in-process readers (the test kit). */
export function resultValue(result: unknown): unknown {
  return result instanceof RawJson ? JSON.parse(result.text) : result;
}
