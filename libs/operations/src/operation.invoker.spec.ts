import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  type Provider,
} from '@nestjs/common';
import { APP_INTERCEPTOR, ExternalContextCreator } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { vi } from 'vitest';
import { Exclude } from 'class-transformer';
import { IsString } from 'class-validator';
import {
  AcceptLanguageResolver,
  I18nContext,
  I18nLoader,
  I18nModule,
} from 'nestjs-i18n';
import { type Observable, tap } from 'rxjs';
import { OperationException } from './errors/operation.exception.js';
import { OperationRefusedError } from './errors/operation-refused.error.js';
import { getInvocationContext } from './invocation/context/get-invocation-context.js';
import { unitOfWorkOf } from './invocation/call/call-unit-of-work.js';
import type { InvocationContext } from './interfaces/operation-contract.js';
import { INPUT_LIMITS } from './invocation/input/input-limits.js';
import {
  INVOCATION_DEFAULTS,
  type InvocationDefaults,
} from './invocation/call/invocation-defaults.js';
import type {
  InvocationOptions,
  InvocationResult,
} from './invocation/call/invocation-options.interface.js';
import type { Carrier } from './interfaces/operation-contract.js';
import { OperationMessages } from './i18n/operation-messages.js';
import { ALL_CARRIERS } from './operations.constants.js';
import { Operation } from './operation.decorator.js';
import { OperationInvoker } from './operation.invoker.js';
import { OperationsModule } from './operations.module.js';

/**
 * The one invocation API every carrier calls, in process: what it decides
 * once for a call (the carrier's exposure, the language, the deadline, the
 * input limits, the correlation id) and the result value it answers with.
 */

/** The app's two languages, from memory. */
class TwoLanguages extends I18nLoader {
  languages(): Promise<string[]> {
    return Promise.resolve(['en-US', 'zh-CN']);
  }

  load(): Promise<Record<string, Record<string, string>>> {
    return Promise.resolve({ 'en-US': {}, 'zh-CN': {} });
  }
}

class NoteDto {
  @IsString()
  note: string;
}

/** A result class: class-transformer leaves its secret out. */
class Note {
  @Exclude()
  readonly secret = 's3cret';

  constructor(readonly note: string) {}
}

/** `JSON.stringify` calls on a note result, whatever its class by then. */
function noteWrites(spy: { mock: { calls: unknown[][] } }): unknown[][] {
  return spy.mock.calls.filter(
    ([value]) => typeof value === 'object' && value !== null && 'note' in value,
  );
}

interface Seen {
  readonly locale: string;
  readonly i18n: string | undefined;
  readonly deadline: Date | undefined;
  readonly correlationId: string;
}

@Injectable()
class ProbeOperations {
  readonly ran: string[] = [];
  readonly seen: Seen[] = [];

  @Operation({ input: null, id: 'probe.everywhere', readOnly: true })
  everywhere(_input: unknown, context: InvocationContext): Seen {
    this.ran.push('probe.everywhere');
    const seen = {
      locale: context.locale,
      i18n: I18nContext.current()?.lang,
      deadline: context.deadline,
      correlationId: context.correlationId,
    };
    this.seen.push(seen);
    return seen;
  }

  @Operation({ id: 'probe.mcp', readOnly: true, expose: ['mcp'] })
  mcpOnly(): { ran: true } {
    this.ran.push('probe.mcp');
    return { ran: true };
  }

  @Operation({ id: 'probe.hidden', readOnly: true, stability: 'internal' })
  hidden(): { ran: true } {
    this.ran.push('probe.hidden');
    return { ran: true };
  }

  /** Records the call's language, then is denied. */
  @Operation({ input: null, id: 'probe.denied', readOnly: true })
  denied(_input: unknown, context: InvocationContext): never {
    this.everywhere(_input, context);
    throw new OperationException('SECURITY_DENIED_001');
  }

  /** Ends only when its call's signal aborts. */
  @Operation({ input: null, id: 'probe.wait', readOnly: true })
  async wait(_input: unknown, context: InvocationContext): Promise<never> {
    this.everywhere(_input, context);
    await new Promise((aborted) =>
      context.signal.addEventListener('abort', aborted),
    );
    throw new Error('aborted');
  }

  @Operation({ id: 'probe.note', readOnly: true, input: NoteDto })
  note(input: NoteDto): Note {
    return new Note(input.note);
  }
}

/** Serialises a call's result early, as a transaction interceptor does. */
@Injectable()
class EarlySerializer implements NestInterceptor {
  readonly texts: string[] = [];

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      tap((value) => {
        const invocation = getInvocationContext(context);
        if (invocation?.operation.id === 'probe.note') {
          this.texts.push(unitOfWorkOf(invocation).serializeResult(value).json);
        }
      }),
    );
  }
}

async function boot(
  defaults?: InvocationDefaults,
  providers: Provider[] = [],
): Promise<TestingModule> {
  @Module({
    imports: [
      OperationsModule,
      I18nModule.forRoot({
        fallbackLanguage: 'en-US',
        loaders: [new TwoLanguages()],
        resolvers: [AcceptLanguageResolver],
      }),
    ],
    providers: [
      ProbeOperations,
      ...(defaults !== undefined
        ? [{ provide: INVOCATION_DEFAULTS, useValue: defaults }]
        : []),
      ...providers,
    ],
  })
  class ProbeModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [ProbeModule],
  }).compile();
  moduleRef.useLogger(false);
  try {
    await moduleRef.init();
  } catch (error) {
    await moduleRef.close();
    throw error;
  }
  return moduleRef;
}

const call = (
  carrier: Carrier,
  more: Partial<InvocationOptions> = {},
): InvocationOptions => ({
  carrier,
  target: 'spec',
  headers: {},
  input: {},
  ...more,
});

describe('OperationInvoker at bootstrap', () => {
  it("prepares no operation's pipeline until its first call, then keeps it", async () => {
    const create = vi.spyOn(ExternalContextCreator.prototype, 'create');
    const pipelines = () =>
      create.mock.calls.filter(([owner]) => owner instanceof ProbeOperations)
        .length;
    const moduleRef = await boot();
    try {
      expect(pipelines()).toBe(0);
      const invoker = moduleRef.get(OperationInvoker);
      await invoker.invoke('probe.mcp', call('mcp'));
      await invoker.invoke('probe.mcp', call('mcp'));
      expect(pipelines()).toBe(1);
    } finally {
      create.mockRestore();
      await moduleRef.close();
    }
  });
});

describe('OperationInvoker.invoke', () => {
  let moduleRef: TestingModule;
  let invoker: OperationInvoker;
  let probe: ProbeOperations;

  beforeAll(async () => {
    moduleRef = await boot();
    invoker = moduleRef.get(OperationInvoker);
    probe = moduleRef.get(ProbeOperations);
  });
  afterAll(() => moduleRef?.close());
  beforeEach(() => {
    probe.ran.length = 0;
    probe.seen.length = 0;
  });

  describe('refuses a carrier the operation is not exposed on, and runs nothing', () => {
    it.each(['cli'] as const)(
      'an mcp-only operation on %s',
      async (carrier) => {
        const refused = invoker.invoke('probe.mcp', call(carrier));

        await expect(refused).rejects.toBeInstanceOf(OperationRefusedError);
        await expect(refused).rejects.toMatchObject({
          operationId: 'probe.mcp',
          carrier,
          reason: 'not-exposed',
          message: `Operation 'probe.mcp' is not exposed on the '${carrier}' carrier.`,
        });
        expect(probe.ran).toEqual([]);
      },
    );

    it('runs it on the carrier it is exposed on', async () => {
      expect(await invoker.invoke('probe.mcp', call('mcp'))).toEqual({
        ok: true,
        value: { ran: true },
        json: '{"ran":true}',
      });
      expect(probe.ran).toEqual(['probe.mcp']);
    });

    it.each(ALL_CARRIERS)(
      'an internal operation, even called directly, on %s',
      async (carrier) => {
        await expect(
          invoker.invoke('probe.hidden', call(carrier)),
        ).rejects.toMatchObject({
          name: 'OperationRefusedError',
          reason: 'not-exposed',
          message:
            "Operation 'probe.hidden' is internal: it is exposed on no carrier.",
        });
        expect(probe.ran).toEqual([]);
      },
    );

    it('an unknown operation', async () => {
      await expect(
        invoker.invoke('probe.nowhere', call('mcp')),
      ).rejects.toMatchObject({
        name: 'OperationRefusedError',
        reason: 'unknown',
        message: "Unknown operation 'probe.nowhere'.",
      });
    });
  });

  describe('runs a call in one language: its context, nestjs-i18n and its failure text', () => {
    const chineseDenial = 'SECURITY_DENIED_001: 拒绝访问。';

    it.each([
      ['a header sent twice', ['fr', 'zh-CN']],
      ['quality values', 'zh;q=0.9, en;q=0.8'],
      ['a list in one header', 'fr, zh-CN'],
    ])('%s: %j', async (_, language) => {
      const result = await invoker.invoke(
        'probe.denied',
        call('mcp', { headers: { 'accept-language': language } }),
      );

      expect(probe.seen).toMatchObject([{ locale: 'zh-CN', i18n: 'zh-CN' }]);
      expect(result).toEqual({
        ok: false,
        failure: {
          code: 'SECURITY_DENIED_001',
          key: 'nestops.errors.SECURITY_DENIED_001',
          params: {},
        },
        text: chineseDenial,
      });
    });

    it('a language given apart from the headers (--locale) wins over them, for nestjs-i18n too', async () => {
      const result = await invoker.invoke(
        'probe.denied',
        call('cli', { headers: { 'accept-language': 'en-US' }, locale: 'zh' }),
      );

      expect(probe.seen).toMatchObject([{ locale: 'zh-CN', i18n: 'zh-CN' }]);
      expect(result).toMatchObject({ ok: false, text: chineseDenial });
    });

    it('the fallback language where the caller names none the app has', async () => {
      const result = await invoker.invoke(
        'probe.denied',
        call('mcp', { headers: { 'accept-language': ['fr', 'de'] } }),
      );

      expect(probe.seen).toMatchObject([{ locale: 'en-US' }]);
      expect(result).toMatchObject({
        ok: false,
        text: 'SECURITY_DENIED_001: Access denied.',
      });
    });

    it('the same language a carrier renders its own texts in', () => {
      const messages = moduleRef.get(OperationMessages);

      expect(
        messages.callerLocale({ 'accept-language': ['fr', 'zh-CN'] }),
      ).toBe('zh-CN');
      expect(messages.callerLocale({ 'accept-language': 'zh-CN' }, 'en')).toBe(
        'en-US',
      );
    });
  });

  describe('answers with an explicit result value: the JSON text is on it', () => {
    it('a success: its value and its JSON text, written once', async () => {
      const stringify = vi.spyOn(JSON, 'stringify');
      const result = await invoker.invoke(
        'probe.note',
        call('mcp', { input: { note: 'hi' } }),
      );
      const writes = noteWrites(stringify);
      stringify.mockRestore();

      expect(result).toEqual({
        ok: true,
        value: { note: 'hi' },
        json: '{"note":"hi"}',
      });
      expect(Object.keys(result)).toEqual(['ok', 'value', 'json']);
      expect(writes).toHaveLength(1);
    });

    it('a failure: the failure and its text, no JSON', async () => {
      const result = await invoker.invoke(
        'probe.note',
        call('mcp', { input: { note: 7 } }),
      );

      expect(Object.keys(result)).toEqual(['ok', 'failure', 'text']);
      expect(result).toMatchObject({
        ok: false,
        failure: { code: 'VALIDATION_INVALID_001' },
        text: expect.stringMatching(/^VALIDATION_INVALID_001: Invalid input: /),
      });
    });

    it("the caller's correlation id, else a new one", async () => {
      await invoker.invoke(
        'probe.everywhere',
        call('mcp', { headers: { 'x-correlation-id': 'from-header' } }),
      );
      await invoker.invoke('probe.everywhere', call('mcp'));

      const ids = probe.seen.map((seen) => seen.correlationId);
      expect(ids[0]).toBe('from-header');
      expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('no deadline where neither the carrier nor the app sets a timeout', async () => {
      await invoker.invoke('probe.everywhere', call('mcp'));

      expect(probe.seen).toMatchObject([{ deadline: undefined }]);
    });
  });
});

describe("OperationInvoker.invoke with the app's InvocationDefaults", () => {
  let moduleRef: TestingModule;
  let invoker: OperationInvoker;
  let probe: ProbeOperations;
  let early: EarlySerializer;

  beforeAll(async () => {
    moduleRef = await boot(
      { timeout: 40, inputLimits: { ...INPUT_LIMITS, maxStringLength: 3 } },
      [
        EarlySerializer,
        { provide: APP_INTERCEPTOR, useExisting: EarlySerializer },
      ],
    );
    invoker = moduleRef.get(OperationInvoker);
    probe = moduleRef.get(ProbeOperations);
    early = moduleRef.get(EarlySerializer);
  });
  afterAll(() => moduleRef?.close());
  beforeEach(() => {
    probe.seen.length = 0;
  });

  const timedOut = (seconds: number): Partial<InvocationResult> => ({
    ok: false,
    failure: {
      code: 'INTERNAL_TIMEOUT_001',
      key: 'nestops.errors.INTERNAL_TIMEOUT_001',
      params: { seconds },
    },
    text: `INTERNAL_TIMEOUT_001: The operation did not finish within ${seconds} s.`,
  });

  it.each(ALL_CARRIERS)(
    "gives up a call on %s at the app's timeout",
    async (carrier) => {
      const result = await invoker.invoke('probe.wait', call(carrier));

      expect(result).toEqual(timedOut(0.04));
      expect(probe.seen[0].deadline).toBeInstanceOf(Date);
    },
  );

  it.each(ALL_CARRIERS)(
    "takes the carrier's own timeout on %s instead",
    async (carrier) => {
      const result = await invoker.invoke(
        'probe.wait',
        call(carrier, { timeout: 20 }),
      );

      expect(result).toEqual(timedOut(0.02));
    },
  );

  it.each(ALL_CARRIERS)(
    "holds the input on %s to the app's input limits",
    async (carrier) => {
      const fits = await invoker.invoke(
        'probe.note',
        call(carrier, { input: { note: 'abc' } }),
      );
      const over = await invoker.invoke(
        'probe.note',
        call(carrier, { input: { note: 'abcd' } }),
      );

      expect(fits.ok).toBe(true);
      expect(over).toMatchObject({
        ok: false,
        failure: { code: 'VALIDATION_INVALID_001' },
      });
    },
  );

  it('sends the serialisation an interceptor made early: one JSON text per call', async () => {
    early.texts.length = 0;
    const stringify = vi.spyOn(JSON, 'stringify');
    const result = await invoker.invoke(
      'probe.note',
      call('mcp', { input: { note: 'abc' } }),
    );
    const writes = noteWrites(stringify);
    stringify.mockRestore();

    expect(early.texts).toEqual(['{"note":"abc"}']);
    expect(result).toMatchObject({ ok: true, json: early.texts[0] });
    expect(writes).toHaveLength(1);
  });
});

describe('InvocationDefaults no call could run with', () => {
  it.each([
    [{ timeout: 0 }, 'timeout must be a positive number of milliseconds'],
    [
      { timeout: Infinity },
      'timeout must be a positive number of milliseconds',
    ],
    [
      { inputLimits: { ...INPUT_LIMITS, maxDepth: 0 } },
      'inputLimits.maxDepth must be a positive integer',
    ],
    [
      { inputLimits: { maxItems: 5 } },
      'inputLimits.maxDepth must be a positive integer; inputLimits.maxProperties must be a positive integer; inputLimits.maxUnknownProperties must be a positive integer; inputLimits.maxStringLength must be a positive integer',
    ],
    [{ permissionsOf: ['orders.read'] }, 'permissionsOf must be a function'],
    [
      null,
      'they must be an object ({ timeout?, inputLimits?, permissionsOf?, tenantOf?, confirm?, runUnconfirmed? })',
    ],
  ])('stop the app at startup: %o', async (defaults, problem) => {
    await expect(
      boot(defaults as unknown as InvocationDefaults),
    ).rejects.toThrow(`Invalid INVOCATION_DEFAULTS: ${problem}.`);
  });
});
