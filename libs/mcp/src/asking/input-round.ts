import { createHash } from 'node:crypto';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import type { RequestStateSeal } from './request-state.js';

/** The most rounds of questions one request may take. */
export const MAX_ROUNDS = 32;

/** What a `requestState` holds: whose request it continues, and the answers so far. */
interface SealedRound {
  readonly v: 1;
  /** A digest of the caller, the method, the target and the arguments. */
  readonly b: string;
  /** The round it was sealed for (the first question is round 1). */
  readonly r: number;
  /** Its expiry, in ms since the epoch. */
  readonly e: number;
  /** The keys asked in that round: the responses it takes. */
  readonly q: readonly string[];
  /** The answers of the rounds before. */
  readonly a: Readonly<Record<string, unknown>>;
}

/**
 * One 2026-07-28 request's round of questions: the answers it brings (those
 * of earlier rounds, sealed in its `requestState`, and its `inputResponses`
 * to the questions of the last round), or none on a first call.
 */
export class InputRound {
  private constructor(
    /** What binds the state to this request: caller, method, target, arguments. */
    private readonly binding: string,
    /** The round this request answers (0: no question asked yet). */
    readonly round: number,
    /** The answers it brings, by question key. */
    readonly answers: ReadonlyMap<string, unknown>,
  ) {}

  /**
   * The round of a request with `params`, for the caller `caller` calling
   * `method` on `target` with `input`. A `requestState` that no key opens,
   * that expired, or that another caller, method, target or arguments got
   * is `-32602`; `inputResponses` without one are not taken (the questions
   * are asked again).
   */
  static of(
    params: Readonly<Record<string, unknown>>,
    seal: RequestStateSeal,
    binding: { caller: string; method: string; target: string; input: unknown },
  ): InputRound {
    const bound = digest(binding);
    const token = params.requestState;
    if (token === undefined) {
      return new InputRound(bound, 0, new Map());
    }
    if (typeof token !== 'string' || !seal.ready) {
      throw McpProtocolError.invalidRequestState(
        'is not one this server sealed',
      );
    }
    const state = seal.open(token) as SealedRound | undefined;
    if (state?.v !== 1 || !isRecord(state.a) || !Array.isArray(state.q)) {
      throw McpProtocolError.invalidRequestState(
        'failed its integrity check (changed, or sealed by another server)',
      );
    }
    if (!(state.e > Date.now())) {
      throw McpProtocolError.invalidRequestState(
        'has expired; call again without it',
      );
    }
    if (state.b !== bound) {
      throw McpProtocolError.invalidRequestState(
        'belongs to another request (another caller, tool or arguments)',
      );
    }
    const answers = new Map(Object.entries(state.a));
    const responses = params.inputResponses;
    if (isRecord(responses)) {
      for (const key of state.q) {
        if (Object.hasOwn(responses, key)) {
          answers.set(key, responses[key]);
        }
      }
    }
    return new InputRound(bound, state.r, answers);
  }

  /** The `requestState` of the next round, which asks `asked` and carries every answer so far. */
  next(seal: RequestStateSeal, asked: readonly string[], ttl: number): string {
    if (this.round >= MAX_ROUNDS) {
      throw McpProtocolError.invalidRequestState(
        `would begin round ${this.round + 1}; a request takes at most ${MAX_ROUNDS}`,
      );
    }
    const state: SealedRound = {
      v: 1,
      b: this.binding,
      r: this.round + 1,
      e: Date.now() + ttl,
      q: asked,
      a: Object.fromEntries(this.answers),
    };
    return seal.seal(state);
  }
}

function digest(binding: object): string {
  return createHash('sha256').update(canonical(binding)).digest('base64url');
}

/** JSON with every object's keys sorted: one text for one value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
