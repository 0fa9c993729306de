import { Inject, Injectable } from '@nestjs/common';
import type { InvocationResult } from '@nestops/operations';
import { OperationMessages } from '@nestops/operations/internal';
import { InputRequired } from '../asking/mcp-asking.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { MCP_SETTINGS, type McpSettings } from '../options/mcp-settings.js';
import { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import { PROMPT_KIND } from '../prompts/prompt.constants.js';
import {
  callFailureError,
  invalidParams,
  unknownPrompt,
} from '../prompts/prompt-errors.js';
import type { PromptMessage } from '../prompts/prompt-messages.js';
import { RawJson } from './answer-text.js';
import { McpAnswerWriter } from './answer.writer.js';
import { McpCallInvoker } from './call-invocation.js';
import type { McpCall } from './mcp-call.js';

/**
 * `prompts/list` and `prompts/get`, in both revisions: the list per
 * language (and per caller under `toolListPerCaller`), a get run through
 * the operation pipeline as a tool call is.
 */
@Injectable()
export class McpPrompts {
  /** Prepared `prompts/list` results, by revision, language and reach. */
  private readonly lists = new Map<string, RawJson>();

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly catalogue: McpPromptCatalogue,
    private readonly calls: McpCallInvoker,
    private readonly messages: OperationMessages,
    private readonly writer: McpAnswerWriter,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /** The prompt list in the caller's language; in 2026 with cache hints. */
  list(call: McpCall): RawJson {
    this.assertPrompts(call);
    const { revision } = call.request;
    const { caller } = call.transport;
    const locale = this.messages.callerLocale(caller.headers, caller.locale);
    const reach = this.settings.toolListPerCaller
      ? this.catalogue.reachOf(caller.principal)
      : undefined;
    const key = `${revision}:${locale}:${reach?.key ?? '*'}`;
    let prepared = this.lists.get(key);
    if (!prepared) {
      const all = this.catalogue.list(locale);
      const prompts = reach ? this.catalogue.within(all, reach.held) : all;
      prepared = new RawJson(
        JSON.stringify(
          revision === '2025'
            ? { prompts }
            : this.writer.modern({
                prompts,
                ...this.writer.cacheHints(!reach && this.sameEverywhere()),
              }),
        ),
        true,
      );
      this.lists.set(key, prepared);
    }
    return prepared;
  }

  /**
   * A prompt's messages: its params read (`-32602` for a missing or
   * unknown name, arguments that are not strings), then the prompt run
   * through the one invocation API. A denied call reads as an unknown
   * prompt; invalid arguments are `-32602` naming each field.
   */
  async get(call: McpCall): Promise<object> {
    this.assertPrompts(call);
    const { params, revision } = call.request;
    const name = params.name;
    if (typeof name !== 'string') {
      throw invalidParams('prompts/get needs a string "name"');
    }
    const definition = this.catalogue.find(name);
    if (!definition) {
      throw unknownPrompt(name);
    }
    const input = params.arguments ?? {};
    if (
      typeof input !== 'object' ||
      input === null ||
      Array.isArray(input) ||
      Object.values(input).some((value) => typeof value !== 'string')
    ) {
      throw invalidParams('"arguments" must be an object of strings');
    }
    const result = await this.calls.invoke(
      call,
      definition,
      name,
      input,
      PROMPT_KIND,
    );
    if (result instanceof InputRequired) {
      return result.result;
    }
    const answer = promptResult(result, name);
    return revision === '2025' ? answer : this.writer.modern(answer);
  }

  /** An app without prompts declares none and has no `prompts/*` methods (`-32601`). */
  private assertPrompts(call: McpCall): void {
    if (!this.catalogue.any()) {
      throw McpProtocolError.methodNotFound(call.request.method);
    }
  }

  /** Whether the list is the same in every language. */
  private sameEverywhere(): boolean {
    const lists = this.messages
      .languages()
      .map((language) => JSON.stringify(this.catalogue.list(language)));
    return lists.every((list) => list === lists[0]);
  }
}

/** The `prompts/get` result of a call, or the protocol error of its failure. */
function promptResult(
  result: InvocationResult,
  name: string,
): { description?: string; messages: readonly PromptMessage[] } {
  if (!result.ok) {
    throw callFailureError(result.failure, result.text, () =>
      unknownPrompt(name),
    );
  }
  const value = result.value as
    { description?: unknown; messages?: unknown } | undefined;
  if (!value || !Array.isArray(value.messages)) {
    throw new Error(
      `Prompt '${name}' returned no messages: return PromptMessages from @nestops/mcp.`,
    );
  }
  return {
    ...(typeof value.description === 'string'
      ? { description: value.description }
      : {}),
    messages: value.messages as PromptMessage[],
  };
}
