import type { InvocationContext } from './invocation-context.interface';

const INVOCATION = Symbol('operations:invocation');

/**
 * The request object of one call: shaped like an HTTP request (headers,
 * `get()`, `user`), so guards written for controllers work unchanged, but
 * built per call from the carrier's headers, never the outer request.
 */
export interface OperationRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  body: unknown;
  readonly params: Record<string, string>;
  readonly query: Record<string, string>;
  user?: unknown;
  get(name: string): string | undefined;
  header(name: string): string | undefined;
  readonly [INVOCATION]: InvocationContext;
}

export function createOperationRequest(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  target: string,
  input: unknown,
  context: (request: OperationRequest) => InvocationContext,
): OperationRequest {
  const normalized: Record<string, string | undefined> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      normalized[name.toLowerCase()] = Array.isArray(value)
        ? value.join(', ')
        : value;
    }
  }
  const lookup = (name: string) => normalized[name.toLowerCase()];
  const request = {
    method: 'POST',
    url: target,
    headers: Object.freeze(normalized),
    body: input,
    params: {},
    query: {},
    get: lookup,
    header: lookup,
  } as unknown as {
    -readonly [K in keyof OperationRequest]: OperationRequest[K];
  };
  request[INVOCATION] = context(request as OperationRequest);
  return request as OperationRequest;
}

/** The invocation context of a per-call request, or undefined for any other object. */
export function invocationOf(request: unknown): InvocationContext | undefined {
  return typeof request === 'object' && request !== null
    ? (request as Partial<OperationRequest>)[INVOCATION]
    : undefined;
}
