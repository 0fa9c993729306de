/**
 * The response object of one call, for enhancers written for HTTP that touch
 * `context.switchToHttp().getResponse()`: status and headers set on it are
 * kept on the object but not sent anywhere, since a carrier answers in its
 * own format.
 */
export class OperationResponse {
  statusCode = 200;
  readonly headersSent = false;
  private readonly headers = new Map<
    string,
    string | number | readonly string[]
  >();

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  header(name: string, value: string | number | readonly string[]): this {
    return this.setHeader(name, value);
  }

  getHeader(name: string): string | number | readonly string[] | undefined {
    return this.headers.get(name.toLowerCase());
  }

  /** The names of the headers set, in lower case, as Node's `getHeaderNames()`. */
  getHeaderNames(): string[] {
    return [...this.headers.keys()];
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
}
