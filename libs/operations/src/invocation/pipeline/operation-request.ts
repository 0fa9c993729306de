import type { CarrierRequest } from '../call/invocation-options.interface.js';
import type { InvocationContext } from '../../interfaces/operation-contract.js';

const INVOCATION = Symbol('operations:invocation');

/** A carrier's headers as the call received them. */
type CarrierHeaders = Readonly<Record<string, string | string[] | undefined>>;

const NO_ADDRESSES: readonly string[] = Object.freeze([]);

/**
 * The request object of one call: shaped like an HTTP request (headers,
 * `get()`, `user`, `ip`, `url`...), so guards written for controllers work
 * unchanged, but built per call from what the carrier gives, never the
 * outer request itself.
 */
export interface OperationRequest {
  /** The carrier request's method (`POST` over HTTP); undefined without one. */
  readonly method: string | undefined;
  /** The endpoint's URL as requested (`/mcp`), never the tool; undefined without a carrier request. */
  readonly url: string | undefined;
  readonly originalUrl: string | undefined;
  readonly path: string | undefined;
  readonly ip: string | undefined;
  /** Frozen; empty without a trusted proxy or a carrier request. */
  readonly ips: readonly string[];
  readonly hostname: string | undefined;
  readonly protocol: string | undefined;
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
 * header at all, copies none. What it says of the caller and the endpoint
 * (`ip`, `url`, ...) is read from the carrier's request when asked, as
 * Express's own getters are. The carrier's objects themselves are never
 * handed out, so nothing a call does can change the outer request.
 */
class CallRequest {
  declare readonly headers: Readonly<Record<string, string | undefined>>;
  readonly params: Record<string, string> = {};
  readonly query: Record<string, string> = {};
  declare user?: unknown;
  [INVOCATION]!: InvocationContext;
  readonly #carrier: CarrierHeaders;
  readonly #origin: CarrierRequest | undefined;
  #headers?: Readonly<Record<string, string | undefined>>;
  #ips?: readonly string[];

  /** One getter for every request: a closure per call would give each its own shape. */
  static readonly #headersProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallRequest) {
      return (this.#headers ??= normalizedHeaders(this.#carrier));
    },
  };

  constructor(
    carrier: CarrierHeaders,
    origin: CarrierRequest | undefined,
    public body: unknown,
  ) {
    this.#carrier = carrier;
    this.#origin = origin;
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

  get method(): string | undefined {
    return this.#origin?.method;
  }

  get url(): string | undefined {
    return this.originalUrl;
  }

  get originalUrl(): string | undefined {
    return this.#origin?.originalUrl ?? this.#origin?.url;
  }

  get path(): string | undefined {
    return this.#origin?.path;
  }

  get ip(): string | undefined {
    return this.#origin?.ip;
  }

  get ips(): readonly string[] {
    if (this.#ips === undefined) {
      const given = this.#origin?.ips;
      this.#ips =
        given === undefined || given.length === 0
          ? NO_ADDRESSES
          : Object.freeze([...given]);
    }
    return this.#ips;
  }

  get hostname(): string | undefined {
    return this.#origin?.hostname;
  }

  get protocol(): string | undefined {
    return this.#origin?.protocol;
  }
}

/**
 * The request object of one call: the carrier's headers, `origin` (the
 * carrier's own request, when it has one) for the caller and endpoint,
 * `input` as the body.
 */
export function createOperationRequest(
  headers: CarrierHeaders,
  origin: CarrierRequest | undefined,
  input: unknown,
  context: (request: OperationRequest) => InvocationContext,
): OperationRequest {
  const request = new CallRequest(headers, origin, input);
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
