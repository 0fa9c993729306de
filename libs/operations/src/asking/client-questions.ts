import type { Type } from '@nestjs/common';
import type { JsonSchema } from '../schema/json-schema.interface.js';

// What a call can ask its client in the middle of a call: the person at the
// client (elicitation), the client's model (sampling) and which folders it
// may use (roots). The types a handler sees, and the port a carrier fills.

/**
 * What a client may be able to answer: `elicitation` (a form for the
 * person at the client), `elicitation.url` (a page the person opens, for
 * what must not pass through the client), `sampling` (the client's model)
 * and `roots` (the folders the client shares).
 *
 * @publicApi
 */
export type ClientCapability =
  'elicitation' | 'elicitation.url' | 'sampling' | 'roots';

/**
 * The user's answer to `context.elicit()`: `accept` with the form's
 * content, a validated instance of the DTO asked for; or `decline`
 * (the user said no) or `cancel` (the user dismissed the question).
 *
 * @publicApi
 */
export type Elicited<T> =
  | { readonly action: 'accept'; readonly content: T }
  | { readonly action: 'decline' | 'cancel'; readonly content?: undefined };

/**
 * Options of one question to the client.
 *
 * @publicApi
 */
export interface AskOptions {
  /**
   * The question's key among the call's questions (a 2026-07-28
   * `inputRequests` key, which the client answers under): letters, digits,
   * `_`, `-` and `.`. Default: the method and the question's number in the
   * call (`elicitation-1`).
   */
  readonly key?: string;
}

/**
 * One message of a `context.sample()` conversation: text, or an image or
 * audio clip as base64 `data`.
 *
 * @publicApi
 */
export interface SamplingMessage {
  /** Who says it. */
  readonly role: 'user' | 'assistant';
  /** What is said. */
  readonly content:
    | { readonly type: 'text'; readonly text: string }
    | {
        readonly type: 'image' | 'audio';
        readonly data: string;
        readonly mimeType: string;
      };
}

/**
 * What `context.sample()` asks the client's model, as MCP's
 * `sampling/createMessage` does.
 *
 * @publicApi
 */
export interface SamplingRequest {
  /** The conversation, oldest message first. */
  readonly messages: readonly SamplingMessage[];
  /** The most tokens the model may answer with. */
  readonly maxTokens: number;
  /** A system prompt the client may use. */
  readonly systemPrompt?: string;
  /** How random the answer may be, as the model reads it. */
  readonly temperature?: number;
  /** Texts at which the model stops. */
  readonly stopSequences?: readonly string[];
  /** Hints at the model to choose (`hints`, `costPriority`, ...), as MCP defines them. */
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
}

/**
 * The client model's answer to `context.sample()`.
 *
 * @publicApi
 */
export interface SampledMessage {
  /** Who says it (`assistant`, as a rule). */
  readonly role: 'user' | 'assistant';
  /** A text block (`{ type: 'text', text }`) or another MCP content block. */
  readonly content: Readonly<Record<string, unknown>> & {
    readonly type: string;
  };
  /** The model that answered. */
  readonly model: string;
  /** Why it stopped (`endTurn`, `maxTokens`, ...), when the client says. */
  readonly stopReason?: string;
}

/**
 * A folder the client shares (`context.roots()`).
 *
 * @publicApi
 */
export interface ClientRoot {
  /** A `file://` URI. */
  readonly uri: string;
  /** What the client calls it. */
  readonly name?: string;
}

/** The MCP method of a question to the client. */
export type ClientQuestionMethod =
  'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/**
 * One question of a call to its client, as the carrier sends it.
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface ClientQuestion {
  /** Its key among the call's questions. */
  readonly key: string;
  /** The MCP method that asks it. */
  readonly method: ClientQuestionMethod;
  /** What MCP sends with it (a form's `message` and `requestedSchema`). */
  readonly params: Readonly<Record<string, unknown>>;
  /** What the client must be able to answer for it. */
  readonly capability: ClientCapability;
}

/**
 * How a carrier puts a call's questions to its client (`CallHooks.asker`).
 *
 * Internal contract (`@nestops/operations/internal`), not public API.
 */
export interface CallAsker {
  /**
   * Whether the client said it can answer `capability`; undefined where
   * the carrier does not know (the question is then put, and a client
   * that cannot answer it says so).
   */
  can(capability: ClientCapability): boolean | undefined;
  /**
   * The client's result for `question`, as MCP defines it for the method.
   * Rejects with an `OperationException`: the client could not or did not
   * answer, or the call stops here to ask (2026-07-28's `input_required`).
   */
  ask(question: ClientQuestion): Promise<unknown>;
}

/**
 * What an operation says it asks its client (`@Operation({ confirm,
 * elicits, requires })`), as discovered.
 *
 * @publicApi
 */
export interface OperationAsks {
  /** Whether each call is confirmed by the user; undefined: the app's default. */
  readonly confirm: boolean | undefined;
  /** The forms it may ask for: each DTO class with its elicitation `requestedSchema`. */
  readonly elicits: ReadonlyMap<Type<unknown>, JsonSchema>;
  /** What the client must be able to answer for a call to run. */
  readonly requires: readonly ClientCapability[];
}

/**
 * The questions a call can put to its client: the part of its
 * `InvocationContext` that asks.
 *
 * @publicApi
 */
export interface ClientQuestions {
  /**
   * Asks the person at the client to fill in a form, the DTO class `form`
   * (listed in the operation's `elicits`), with `message` saying why:
   * `accept` gives the answer validated as the DTO. Over MCP 2025 it is an
   * `elicitation/create` request during the call; in 2026-07-28 the call
   * answers `input_required` and runs again from the start with the answer
   * (its first run's transaction rolled back). A client that cannot ask
   * fails the call with `BUSINESS_CLIENT_001`.
   */
  elicit<T>(
    form: Type<T>,
    message: string,
    options?: AskOptions,
  ): Promise<Elicited<T>>;
  /**
   * Asks the person at the client to open `url` (a page of the app's, for
   * what must not pass through the client: a credential, a payment) and
   * says when they accepted, declined or cancelled. The page's own
   * outcome is the app's to check.
   */
  elicitUrl(
    url: string,
    message: string,
    options?: AskOptions,
  ): Promise<{ readonly action: 'accept' | 'decline' | 'cancel' }>;
  /** Asks the client's model for a message (MCP's `sampling/createMessage`). */
  sample(
    request: SamplingRequest,
    options?: AskOptions,
  ): Promise<SampledMessage>;
  /** The folders the client shares (MCP's `roots/list`). */
  roots(options?: AskOptions): Promise<readonly ClientRoot[]>;
  /**
   * Whether the client said it can answer `capability`; undefined where
   * the carrier does not know (MCP 2025 over HTTP: the question is then
   * put, and fails the call if the client cannot answer it).
   */
  canAsk(capability: ClientCapability): boolean | undefined;
}
