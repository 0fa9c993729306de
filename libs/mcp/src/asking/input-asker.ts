import { OperationException } from '@nestops/operations';
import type {
  CallAsker,
  ClientCapability,
  ClientQuestion,
} from '@nestops/operations/internal';
import { canAnswer } from './client-capabilities.js';

/**
 * A 2026-07-28 call's questions: a question its request brings the answer
 * to is answered at once; any other stops the call
 * (`INTERNAL_INPUT_001`, its transaction rolled back) and is kept, so that
 * the request is answered `input_required` with every question asked.
 */
export class InputAsker implements CallAsker {
  /** The questions asked without an answer, by key. */
  readonly asked = new Map<string, ClientQuestion>();

  constructor(
    private readonly capabilities: Readonly<Record<string, unknown>>,
    private readonly answers: ReadonlyMap<string, unknown>,
  ) {}

  can(capability: ClientCapability): boolean {
    return canAnswer(this.capabilities, capability);
  }

  ask(question: ClientQuestion): Promise<unknown> {
    if (this.answers.has(question.key)) {
      return Promise.resolve(this.answers.get(question.key));
    }
    this.asked.set(question.key, question);
    return Promise.reject(
      new OperationException('INTERNAL_INPUT_001', {
        questions: [...this.asked.keys()].join(', '),
      }),
    );
  }

  /** The `inputRequests` of the answer: each question asked, by key. */
  inputRequests(): Record<string, { method: string; params: object }> {
    const requests: Record<string, { method: string; params: object }> = {};
    for (const [key, { method, params }] of this.asked) {
      requests[key] = { method, params };
    }
    return requests;
  }
}
