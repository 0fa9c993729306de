import type { INestApplicationContext, Type } from '@nestjs/common';
import type { Carrier } from '../interfaces/operation-contract.js';
import type { InvocationResult } from '../invocation/call/invocation-options.interface.js';
import { OperationInvoker } from '../operation.invoker.js';
import { OperationRegistry } from '../operation.registry.js';
import { carrierHeaders, type TestHeaders } from './test-headers.js';

/**
 * How `OperationTestClient` calls an operation.
 *
 * @publicApi
 */
export interface OperationTestOptions {
  /** The caller's headers (credentials, tenant, locale, correlation id). */
  readonly headers?: TestHeaders;
  /** The carrier the call claims to come from. Default: `mcp`. */
  readonly carrier?: Carrier;
  /** Recorded as the call's source (`InvocationContext.target`). Default: the operation id. */
  readonly target?: string;
  /** Per-call limit in milliseconds. Default: the app's (McpModule's `timeout`), else none. */
  readonly timeout?: number;
}

/**
 * Calls operations of an initialised Nest application in-process, through
 * the same pipeline as a carrier (a new DI context and request object, the
 * app's guards, interceptors and pipes, validation, the method), and returns
 * the outcome as a value.
 *
 * ```ts
 * const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
 * await moduleRef.init();
 * const alice = OperationTestClient.create(moduleRef, {
 *   headers: { Authorization: 'Bearer alice-token' },
 * });
 * const result = await alice.invoke('notes.create', { text: 'hello' });
 * ```
 *
 * @publicApi
 */
export class OperationTestClient {
  private constructor(
    private readonly app: INestApplicationContext,
    private readonly defaults: OperationTestOptions,
  ) {}

  /**
   * A client for `app`: a `TestingModule` after `init()`, or an application
   * after `init()` or `listen()`. `defaults` apply to every call.
   */
  static create(
    app: INestApplicationContext,
    defaults: OperationTestOptions = {},
  ): OperationTestClient {
    return new OperationTestClient(app, defaults);
  }

  /** A client whose calls also send `headers` (they win over this client's). */
  withHeaders(headers: TestHeaders): OperationTestClient {
    return new OperationTestClient(this.app, {
      ...this.defaults,
      headers: carrierHeaders(this.defaults.headers, headers),
    });
  }

  /**
   * Runs `operationId` once with `input` (parsed JSON, as a carrier passes
   * it), through `OperationInvoker.invoke` as every carrier does: the app's
   * `InvocationDefaults` (McpModule's `timeout` and `inputLimits`) apply,
   * and the result is `{ ok: true, value, json }` or
   * `{ ok: false, failure, text }`. Rejects with `OperationRefusedError`
   * only when the operation does not exist or is not exposed on the
   * carrier; every failure of the call itself is a result with `ok: false`.
   */
  async invoke(
    operationId: string,
    input: unknown = {},
    options: OperationTestOptions = {},
  ): Promise<InvocationResult> {
    this.assertInitialised();
    return this.provider(OperationInvoker).invoke(operationId, {
      carrier: options.carrier ?? this.defaults.carrier ?? 'mcp',
      target: options.target ?? this.defaults.target ?? operationId,
      headers: carrierHeaders(this.defaults.headers, options.headers),
      input,
      timeout: options.timeout ?? this.defaults.timeout,
    });
  }

  private assertInitialised(): void {
    const registry = this.provider(OperationRegistry);
    try {
      registry.list();
    } catch {
      throw new Error(
        'The application is not initialised: call init() on it (or on the TestingModule) before calling operations.',
      );
    }
  }

  private provider<T>(type: Type<T>): T {
    try {
      return this.app.get(type, { strict: false });
    } catch {
      throw new Error(
        `${type.name} is not in this application: import McpModule (or OperationsModule) into it.`,
      );
    }
  }
}
