import { randomUUID } from 'node:crypto';
import type { Type } from '@nestjs/common';
import { OperationException } from '../errors/operation.exception.js';
import { validationPipeOf } from '../invocation/input/dto-validation-pipe.js';
import type { OperationDefinition } from '../interfaces/operation-contract.js';
import type {
  AskOptions,
  CallAsker,
  ClientCapability,
  ClientQuestionMethod,
  ClientRoot,
  Elicited,
  SampledMessage,
  SamplingRequest,
} from './client-questions.js';

/** A question's key: what a 2026-07-28 `inputRequests` map may be keyed by. */
const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/**
 * The questions one call puts to its client through its carrier's
 * `asker`, each checked before it is put (a form the operation lists, a
 * well-formed key) and each answer checked before the method sees it.
 */
export class CallQuestions {
  /** How many questions the call has put: each one's default key. */
  #count = 0;

  constructor(
    private readonly operation: OperationDefinition,
    private readonly asker: CallAsker | undefined,
  ) {}

  can(capability: ClientCapability): boolean | undefined {
    return this.asker ? this.asker.can(capability) : false;
  }

  async elicit<T>(
    form: Type<T>,
    message: string,
    options?: AskOptions,
  ): Promise<Elicited<T>> {
    const requestedSchema = this.operation.asks?.elicits.get(form);
    if (requestedSchema === undefined) {
      throw new TypeError(
        `Operation '${this.operation.id}' elicits ${form?.name ?? String(form)}, which its @Operation({ elicits }) does not list.`,
      );
    }
    const answer = await this.put(
      'elicitation',
      'elicitation/create',
      { message, requestedSchema },
      options,
    );
    return elicited(form, answer, options?.key ?? 'elicitation');
  }

  async elicitUrl(
    url: string,
    message: string,
    options?: AskOptions,
  ): Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }> {
    if (!URL.canParse(url)) {
      throw new TypeError(`elicitUrl: '${url}' is not a URL.`);
    }
    const answer = await this.put(
      'elicitation.url',
      'elicitation/create',
      { mode: 'url', message, url, elicitationId: randomUUID() },
      options,
    );
    const { action } = answer as { action?: unknown };
    if (typeof action !== 'string' || !ACTIONS.has(action)) {
      throw unusable(options?.key ?? 'elicitation', 'no action it defines');
    }
    return { action: action as 'accept' | 'decline' | 'cancel' };
  }

  async sample(
    request: SamplingRequest,
    options?: AskOptions,
  ): Promise<SampledMessage> {
    const answer = (await this.put(
      'sampling',
      'sampling/createMessage',
      request as unknown as Record<string, unknown>,
      options,
    )) as Partial<SampledMessage> | undefined;
    const content = answer?.content as { type?: unknown } | undefined;
    if (
      (answer?.role !== 'assistant' && answer?.role !== 'user') ||
      typeof content?.type !== 'string' ||
      typeof answer.model !== 'string'
    ) {
      throw unusable(options?.key ?? 'sampling', 'not a sampled message');
    }
    return answer as SampledMessage;
  }

  async roots(options?: AskOptions): Promise<readonly ClientRoot[]> {
    const answer = (await this.put('roots', 'roots/list', {}, options)) as
      { roots?: unknown } | undefined;
    const roots = answer?.roots;
    if (
      !Array.isArray(roots) ||
      !roots.every(
        (root: { uri?: unknown; name?: unknown }) =>
          typeof root?.uri === 'string' &&
          (root.name === undefined || typeof root.name === 'string'),
      )
    ) {
      throw unusable(options?.key ?? 'roots', 'not a list of roots');
    }
    return roots as ClientRoot[];
  }

  /** Puts one question through the asker, once it is known the client can answer. */
  put(
    capability: ClientCapability,
    method: ClientQuestionMethod,
    params: Readonly<Record<string, unknown>>,
    options: AskOptions | undefined,
  ): Promise<unknown> {
    this.#count += 1;
    const key = options?.key ?? `${method.split('/')[0]}-${this.#count}`;
    if (!KEY.test(key)) {
      throw new TypeError(
        `A question's key is 1 to 64 letters, digits, '_', '-' or '.'; '${key}' is not.`,
      );
    }
    if (!this.asker || this.asker.can(capability) === false) {
      return Promise.reject(
        new OperationException('BUSINESS_CLIENT_001', { capability }),
      );
    }
    return this.asker.ask({ key, method, params, capability });
  }
}

/** The client's answer to a form, its content validated as the form's DTO. */
async function elicited<T>(
  form: Type<T>,
  answer: unknown,
  question: string,
): Promise<Elicited<T>> {
  const { action, content } = (answer ?? {}) as {
    action?: unknown;
    content?: unknown;
  };
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    throw unusable(question, 'no action it defines');
  }
  if (action !== 'accept') {
    return { action: action as 'decline' | 'cancel' };
  }
  const value = (await validationPipeOf(form).transform(content ?? {}, {
    type: 'body',
    metatype: form,
  })) as T;
  return { action: 'accept', content: value };
}

function unusable(question: string, detail: string): OperationException {
  return new OperationException('BUSINESS_CLIENT_002', { question, detail });
}
