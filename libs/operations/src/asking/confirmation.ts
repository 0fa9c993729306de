import { OperationException } from '../errors/operation.exception.js';
import type { OperationMessages } from '../i18n/operation-messages.js';
import type { OperationDefinition } from '../interfaces/operation-contract.js';
import type { CallQuestions } from './call-questions.js';

/** What confirms one call: its question's text, and what to do without a client that can ask. */
export interface CallConfirmation {
  /** The question, in the call's language, for the call's validated input. */
  readonly message: (input: unknown) => string;
  /** The operation as the user knows it (its title), for the failures' texts. */
  readonly operation: string;
  /** Whether the call runs unconfirmed where the client cannot ask. */
  readonly runUnconfirmed: boolean;
}

/** The app's confirmation setting (`InvocationDefaults.confirm`). */
export interface ConfirmDefaults {
  readonly confirm?: 'destructive';
  readonly runUnconfirmed?: boolean;
}

/**
 * How a call of `operation` is confirmed, or undefined when it is not:
 * its own `confirm`, else the app's (`destructive`: every destructive
 * operation). The question is the catalogue's `<id>.confirm` with the
 * input's properties as arguments, else `nestops.confirm` with
 * `{operation}` and `{arguments}`, else English.
 */
export function confirmationOf(
  operation: OperationDefinition,
  defaults: ConfirmDefaults,
  messages: OperationMessages,
  locale: string,
): CallConfirmation | undefined {
  if (!confirmsEachCall(operation, defaults.confirm)) {
    return undefined;
  }
  const title =
    messages.text(`${operation.id}.title`, locale) ??
    operation.title ??
    operation.id;
  return {
    operation: title,
    runUnconfirmed: defaults.runUnconfirmed === true,
    message: (input) => {
      const args = argumentsOf(input);
      const listed = Object.entries(args)
        .map(([name, value]) => `${name}: ${value}`)
        .join(', ');
      return (
        messages.text(`${operation.id}.confirm`, locale, args) ??
        messages.text('nestops.confirm', locale, {
          operation: title,
          arguments: listed,
        }) ??
        `Confirm: ${title}${listed ? ` (${listed})` : ''}?`
      );
    },
  };
}

/**
 * Whether each call of `operation` is confirmed by the user: its own
 * `confirm`, else the app's (`destructive`: when it is destructive).
 */
export function confirmsEachCall(
  operation: OperationDefinition,
  confirm: ConfirmDefaults['confirm'],
): boolean {
  return (
    operation.asks?.confirm ??
    (confirm === 'destructive' && operation.semantics.destructive)
  );
}

/**
 * Asks the user to confirm the call and resolves once they accepted;
 * fails it with `BUSINESS_DECLINED_001`/`_002` on decline/cancel, and with
 * `SECURITY_CONFIRMATION_001` where the client cannot ask (unless the app
 * runs such calls unconfirmed). Resolves with whether the user confirmed.
 */
export async function confirmCall(
  confirmation: CallConfirmation,
  questions: CallQuestions,
  input: unknown,
): Promise<boolean> {
  const { operation } = confirmation;
  if (questions.can('elicitation') === false) {
    if (confirmation.runUnconfirmed) {
      return false;
    }
    throw new OperationException('SECURITY_CONFIRMATION_001', { operation });
  }
  const answer = (await questions.put(
    'elicitation',
    'elicitation/create',
    {
      message: confirmation.message(input),
      requestedSchema: { type: 'object', properties: {} },
    },
    { key: 'confirm' },
  )) as { action?: unknown } | undefined;
  if (answer?.action === 'accept') {
    return true;
  }
  throw answer?.action === 'decline'
    ? new OperationException('BUSINESS_DECLINED_001', { operation })
    : answer?.action === 'cancel'
      ? new OperationException('BUSINESS_DECLINED_002', { operation })
      : new OperationException('BUSINESS_CLIENT_002', {
          question: 'confirm',
          detail: 'no action it defines',
        });
}

/** The input's top-level values that read as text: the question's arguments. */
function argumentsOf(input: unknown): Record<string, string | number> {
  const args: Record<string, string | number> = {};
  if (typeof input !== 'object' || input === null) {
    return args;
  }
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'string' || typeof value === 'number') {
      args[name] = value;
    } else if (typeof value === 'boolean') {
      args[name] = String(value);
    }
  }
  return args;
}
