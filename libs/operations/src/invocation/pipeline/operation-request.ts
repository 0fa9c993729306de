import type { InvocationContext } from '../context/invocation-context.interface.js';

const INVOCATION = Symbol('operations:invocation');

/** A carrier's headers as the call received them. */
type CarrierHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The request object of one call: shaped like an HTTP request (headers,
 * `get()`, `user`), so guards written for controllers work unchanged, but
 * built per call from the carrier's headers, never the outer request.
 */
export interface OperationRequest {
  readonly method: string;
  readonly url: string;
  /** The carrier's headers: names in lower case, repeated values joined, frozen. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  body: unknown;
  readonly params: Record<string, string>;
  readonly query: Record<string, string>;
  user?: unknown;
  /** A header's value by its name in any case, as Express's `req.get()`. */
  get(name: string): string | undefined;
  /** The same as `get()`. */
  header(name: string): string | undefined;
  readonly [INVOCATION]: InvocationContext;
}

/**
 * The per-call request. Its `headers` are the carrier's, copied (names in
 * lower case, repeated values joined, frozen) the first time something
 * reads them: a call whose guards and handler only use `get()`, or no
 * header at all, copies none. The carrier's object itself is never handed
 * out, so nothing a call does can change the outer request's headers.
 */
class CallRequest {
  readonly method = 'POST';
  declare readonly headers: Readonly<Record<string, string | undefined>>;
  readonly params: Record<string, string> = {};
  readonly query: Record<string, string> = {};
  declare user?: unknown;
  [INVOCATION]!: InvocationContext;
  readonly #carrier: CarrierHeaders;
  #headers?: Readonly<Record<string, string | undefined>>;

  /** One getter for every request: a closure per call would give each its own shape. */
  static readonly #headersProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallRequest) {
      return (this.#headers ??= normalizedHeaders(this.#carrier));
    },
  };

  constructor(
    carrier: CarrierHeaders,
    readonly url: string,
    public body: unknown,
  ) {
    this.#carrier = carrier;
    // An own, enumerable property, as on an HTTP request (a spread or a
    // logger sees it), read on first use.
    Object.defineProperty(this, 'headers', CallRequest.#headersProperty);
  }

  get(name: string): string | undefined {
    const key = name.toLowerCase();
    if (this.#headers === undefined && Object.hasOwn(this.#carrier, key)) {
      const value = this.#carrier[key];
      if (value !== undefined) {
        return headerText(value);
      }
    }
    // Not under its lower-case name: the carrier may spell it otherwise.
    return this.headers[key];
  }

  header(name: string): string | undefined {
    return this.get(name);
  }
}

export function createOperationRequest(
  headers: CarrierHeaders,
  target: string,
  input: unknown,
  context: (request: OperationRequest) => InvocationContext,
): OperationRequest {
  const request = new CallRequest(headers, target, input);
  request[INVOCATION] = context(request as OperationRequest);
  return request as OperationRequest;
}

function normalizedHeaders(
  carrier: CarrierHeaders,
): Readonly<Record<string, string | undefined>> {
  const normalized: Record<string, string | undefined> = Object.create(null);
  for (const name of Object.keys(carrier)) {
    const value = headerText(carrier[name]);
    if (value !== undefined) {
      normalized[name.toLowerCase()] = value;
    }
  }
  return Object.freeze(normalized);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The invocation context of a per-call request, or undefined for any other object. */
export function invocationOf(request: unknown): InvocationContext | undefined {
  return typeof request === 'object' && request !== null
    ? (request as Partial<OperationRequest>)[INVOCATION]
    : undefined;
}
