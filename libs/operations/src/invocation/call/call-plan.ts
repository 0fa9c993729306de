import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import { CallAbort } from './call-abort.js';
import { CallCommits } from './call-commits.js';
import { CallSerializer } from '../output/call-serializer.js';
import type { InvocationDefaults, TenantOf } from './invocation-defaults.js';
import type { InvocationOptions } from './invocation-options.interface.js';
import type { CallHooks } from './invocation-options.interface.js';
import { correlationIdOf } from '../context/correlation-id.js';
import type { CallConfirmation } from '../../asking/confirmation.js';
import { CallQuestions } from '../../asking/call-questions.js';

/** What the invoker decides about one call, once, before it runs. */
export interface CallPlan {
  readonly operation: OperationDefinition;
  readonly options: InvocationOptions;
  /** What the carrier gave the call beyond its options; undefined: nothing. */
  readonly hooks: CallHooks | undefined;
  /** The carrier's headers, with the call's language when it was given apart. */
  readonly headers: InvocationOptions['headers'];
  readonly correlationId: string;
  /** The app's reading of the call's tenant; undefined: none. */
  readonly tenantOf: TenantOf | undefined;
  readonly locale: string;
  /** Milliseconds; undefined: no limit. */
  readonly timeout: number | undefined;
  readonly deadline: Date | undefined;
  readonly abort: CallAbort;
  /** The units of work holding their commit until the call's result is final. */
  readonly commits: CallCommits;
  readonly serializer: CallSerializer;
  /** How the call is confirmed before its method runs; undefined: it is not. */
  readonly confirmation: CallConfirmation | undefined;
  /** Set once the user confirmed the call. */
  confirmed?: true;
  /** The call's questions to its client, made on the first. */
  questions?: CallQuestions;
}

/** The questions of the call `call` puts to its client. */
export function questionsOf(call: CallPlan): CallQuestions {
  return (call.questions ??= new CallQuestions(
    call.operation,
    call.hooks?.asker,
  ));
}

/**
 * The plan of one call: the carrier's timeout, else the app's; the
 * caller's correlation id, else a new one; `locale`, the language already
 * negotiated for it.
 */
export function planCall(
  operation: OperationDefinition,
  options: InvocationOptions,
  defaults: InvocationDefaults,
  locale: string,
  hooks: CallHooks | undefined,
  confirmation?: CallConfirmation,
): CallPlan {
  const timeout = options.timeout ?? defaults.timeout;
  return {
    operation,
    options,
    hooks,
    headers: headersOf(options, locale),
    correlationId: correlationIdOf(options.headers),
    tenantOf: defaults.tenantOf,
    locale,
    timeout,
    deadline:
      timeout !== undefined ? new Date(Date.now() + timeout) : undefined,
    abort: new CallAbort(),
    commits: new CallCommits(),
    serializer: new CallSerializer(operation),
    confirmation,
  };
}

/**
 * The call's headers. A language given apart from them (a `--locale`) is
 * also its `Accept-Language`, so that the app's own language resolvers
 * (nestjs-i18n's `I18nContext` in handlers) see the call's one language.
 */
function headersOf(
  options: InvocationOptions,
  locale: string,
): InvocationOptions['headers'] {
  return options.locale !== undefined
    ? { ...options.headers, 'accept-language': locale }
    : options.headers;
}
