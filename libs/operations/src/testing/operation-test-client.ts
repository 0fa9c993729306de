import type { INestApplicationContext, Type } from '@nestjs/common';
import type { Carrier } from '../interfaces/operation-contract.js';
import type { InvocationResult } from '../invocation/call/invocation-options.interface.js';
import { OperationInvoker } from '../operation.invoker.js';
import { OperationRegistry } from '../operation.registry.js';
import type { CallAsker } from '../asking/client-questions.js';
import { OperationException } from '../errors/operation.exception.js';
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
  /**
   * What the client answers the call's questions (`context.elicit()`,
   * `sample()`, `roots()`, a confirmation), as MCP results: by question
   * key (`{ confirm: { action: 'accept' } }`), or a function of the
   * question. Default: none, as a client that cannot be asked.
   */
  readonly answers?:
    Readonly<Record<string, unknown>> | ((question: TestQuestion) => unknown);
}

/**
 * A question a call puts to its client, as `OperationTestOptions.answers`
 * sees it: its key, MCP method and params.
 *
 * @publicApi
 */
export interface TestQuestion {
  /** The question's key (`confirm`, `elicitation-1`, or the one the method gave). */
  readonly key: string;
  /** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  readonly method: string;
  /** What MCP sends with it (`message` and `requestedSchema` of a form). */
  readonly params: Readonly<Record<string, unknown>>;
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
    const answers = options.answers ?? this.defaults.answers;
    return this.provider(OperationInvoker).invoke(
      operationId,
      {
        carrier: options.carrier ?? this.defaults.carrier ?? 'mcp',
        target: options.target ?? this.defaults.target ?? operationId,
        headers: carrierHeaders(this.defaults.headers, options.headers),
        input,
        timeout: options.timeout ?? this.defaults.timeout,
      },
      answers === undefined ? undefined : { asker: answering(answers) },
    );
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

/** The asker of a test call: `answers`, by key or as a function. */
function answering(
  answers: NonNullable<OperationTestOptions['answers']>,
): CallAsker {
  return {
    can: () => true,
    ask: async ({ key, method, params }) => {
      if (typeof answers === 'function') {
        return answers({ key, method, params });
      }
      if (!Object.hasOwn(answers, key)) {
        throw new OperationException('BUSINESS_CLIENT_002', {
          question: key,
          detail: 'the test gives no answer to it',
        });
      }
      return answers[key];
    },
  };
}
