import { HttpException } from '@nestjs/common';
import { OperationException } from '../../errors/operation.exception.js';

/** A header's value, as Node's `setHeader()` takes it. */
type HeaderValue = string | number | readonly string[];

/**
 * The response object of one call, for enhancers written for HTTP that touch
 * `context.switchToHttp().getResponse()`: it answers as Express's response
 * does for what guards and interceptors use (`status()`, `statusCode`,
 * `setHeader()`/`getHeader()`/`removeHeader()`/`hasHeader()`, `header()`,
 * `set()`, `get()`). Status and headers set on it are kept on the object
 * but not sent anywhere, since a carrier answers in its own format.
 * `statusCode` is 200 until the handler fails; then it is the failure's
 * status, for the interceptors that read it after the handler.
 */
export class OperationResponse {
  statusCode = 200;
  readonly headersSent = false;
  /** Made when a header is first set: most calls set none. */
  private headers?: Map<string, HeaderValue>;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  setHeader(name: string, value: HeaderValue): this {
    (this.headers ??= new Map()).set(name.toLowerCase(), value);
    return this;
  }

  getHeader(name: string): HeaderValue | undefined {
    return this.headers?.get(name.toLowerCase());
  }

  /** The names of the headers set, in lower case, as Node's `getHeaderNames()`. */
  getHeaderNames(): string[] {
    return this.headers ? [...this.headers.keys()] : [];
  }

  // What an exception filter writes (Express's `json()`, `send()`, `end()`,
  // as Nest's `ExpressAdapter.reply` and `BaseExceptionFilter` use them)
  // becomes the call's failure.

  /** The body an exception filter wrote, once it wrote one. */
  get written(): { readonly body: unknown } | undefined {
    return this.sent;
  }

  private sent?: { readonly body: unknown };

  json(body?: unknown): this {
    this.sent ??= { body };
    return this;
  }

  send(body?: unknown): this {
    return this.json(body);
  }

  end(chunk?: unknown): this {
    return this.json(
      typeof chunk === 'string' || Buffer.isBuffer(chunk)
        ? String(chunk)
        : undefined,
    );
  }

  hasHeader(name: string): boolean {
    return this.headers?.has(name.toLowerCase()) ?? false;
  }

  removeHeader(name: string): void {
    this.headers?.delete(name.toLowerCase());
  }

  /** The headers set, by lower-case name, as Node's `getHeaders()`. */
  getHeaders(): Record<string, HeaderValue> {
    return this.headers ? Object.fromEntries(this.headers) : {};
  }

  /**
   * As Express's `res.set()`/`res.header()`: one header (a number written
   * as its text), or each of an object's.
   */
  set(
    field: string | Readonly<Record<string, HeaderValue>>,
    value?: HeaderValue,
  ): this {
    if (typeof field === 'string') {
      return this.setHeader(
        field,
        typeof value === 'number' ? String(value) : (value ?? ''),
      );
    }
    for (const name of Object.keys(field)) {
      this.set(name, field[name]);
    }
    return this;
  }

  /** The same as `set()`. */
  header(
    field: string | Readonly<Record<string, HeaderValue>>,
    value?: HeaderValue,
  ): this {
    return this.set(field, value);
  }

  /** A header's value, as Express's `res.get()`. */
  get(name: string): HeaderValue | undefined {
    return this.getHeader(name);
  }

  /** Records `error`'s status as the call's: an HTTP exception's own, else the failure's. */
  failedWith(error: unknown): void {
    this.statusCode = failureStatus(error);
  }
}

/** By a catalogue code's area and kind: the status a REST route would answer with. */
const STATUS_BY_KIND: ReadonlyArray<readonly [RegExp, number]> = [
  [/^VALIDATION_/, 400],
  [/^SECURITY_DENIED_003$/, 401],
  [/^SECURITY_THROTTLED_/, 429],
  [/^SECURITY_/, 403],
  [/^BUSINESS_NOTFOUND_/, 404],
  [/^BUSINESS_CONFLICT_/, 409],
  [/^BUSINESS_/, 422],
  [/^INTERNAL_UNAVAILABLE_/, 503],
  [/^INTERNAL_TIMEOUT_/, 504],
];

function failureStatus(error: unknown): number {
  if (error instanceof HttpException) {
    return error.getStatus();
  }
  if (error instanceof OperationException) {
    const { code } = error.failure;
    return STATUS_BY_KIND.find(([kind]) => kind.test(code))?.[1] ?? 500;
  }
  return 500;
}
