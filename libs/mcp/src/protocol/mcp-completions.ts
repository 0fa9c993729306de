import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { OperationDefinition } from '@nestops/operations';
import { ContractError, OperationRegistry } from '@nestops/operations/internal';
import { isRecord } from '../json-rpc/json-rpc-envelope.js';
import { McpProtocolError } from '../json-rpc/mcp-protocol.error.js';
import { closedSetOf, startingWith } from '../completions/closed-set.js';
import { McpPromptCatalogue } from '../prompts/mcp-prompt.catalogue.js';
import {
  COMPLETER_KIND,
  completerId,
  MAX_COMPLETION_VALUES,
} from '../prompts/prompt.constants.js';
import {
  callFailureError,
  invalidParams,
  unknownCompletionRef,
} from '../prompts/prompt-errors.js';
import {
  UNKNOWN_COMPLETION_TARGET,
  unknownCompletedArgumentMessage,
} from '../prompts/prompt.messages.js';
import { McpAnswerWriter } from './answer.writer.js';
import { McpCallInvoker } from './call-invocation.js';
import type { McpCall } from './mcp-call.js';

/** What an argument of a prompt or resource template completes from. */
interface CompletionTarget {
  /** The prompt's name or the operation's id (the completers' target). */
  readonly id: string;
  readonly definition: OperationDefinition;
  /** The arguments (template variables) it has. */
  readonly arguments: readonly string[];
}

/**
 * `completion/complete` for a prompt's arguments (`ref/prompt`) and a
 * resource template's variables (`ref/resource`): the app's `@Complete()`
 * method where it has one (run with the caller's rights), else the
 * argument's closed set of values, filtered by what was typed.
 */
@Injectable()
export class McpCompletions implements OnApplicationBootstrap {
  /** Whether the app has anything to complete, once known. */
  private anything?: boolean;

  /** @internal Made by Nest's injector. */
  constructor(
    private readonly registry: OperationRegistry,
    private readonly prompts: McpPromptCatalogue,
    private readonly calls: McpCallInvoker,
    private readonly writer: McpAnswerWriter,
  ) {}

  /** Nest's bootstrap hook: a completer of an argument its target lacks stops the startup. */
  onApplicationBootstrap(): void {
    for (const completer of this.registry.callables(COMPLETER_KIND)) {
      const [target, argument] = completer.id.split(' ');
      const found = target.includes('.')
        ? this.resourceTarget(this.registry.get(target))
        : this.promptTarget(target);
      if (!found?.arguments.includes(argument)) {
        throw new ContractError(
          UNKNOWN_COMPLETION_TARGET,
          unknownCompletedArgumentMessage(
            target,
            argument,
            completer.source,
            found?.arguments ?? [],
          ),
        );
      }
    }
  }

  /** Whether the app has anything to complete: prompt arguments or template variables. */
  any(): boolean {
    return (this.anything ??=
      this.prompts.hasArguments() ||
      this.registry
        .exposedOn('mcp')
        .some(
          (operation) => (operation.asResource?.variables.length ?? 0) > 0,
        ));
  }

  /** The values for the argument `params` names, at most 100. */
  async complete(call: McpCall): Promise<object> {
    const { params, revision } = call.request;
    if (!this.any()) {
      // Nothing to complete: no `completions` capability, no method.
      throw McpProtocolError.methodNotFound(call.request.method);
    }
    const { ref, argument } = params;
    if (
      !isRecord(ref) ||
      !isRecord(argument) ||
      typeof argument.name !== 'string' ||
      typeof argument.value !== 'string'
    ) {
      throw invalidParams(
        'completion/complete needs a "ref" and an "argument" with a string "name" and "value"',
      );
    }
    const given = isRecord(params.context) ? params.context.arguments : {};
    const target =
      ref.type === 'ref/prompt' && typeof ref.name === 'string'
        ? this.promptTarget(ref.name)
        : ref.type === 'ref/resource' && typeof ref.uri === 'string'
          ? this.resourceTarget(
              this.registry
                .exposedOn('mcp')
                .find((operation) => operation.asResource?.uri === ref.uri),
            )
          : undefined;
    const described = JSON.stringify(ref.name ?? ref.uri ?? ref.type);
    if (!target) {
      throw unknownCompletionRef(described);
    }
    if (!target.arguments.includes(argument.name)) {
      throw unknownCompletionRef(
        `${described} has no argument ${JSON.stringify(argument.name)}`,
      );
    }
    const values = await this.values(
      call,
      target,
      argument.name,
      argument.value,
      isRecord(given) ? given : {},
      () => unknownCompletionRef(described),
    );
    const completion = {
      completion: {
        values: values.slice(0, MAX_COMPLETION_VALUES),
        total: values.length,
        hasMore: values.length > MAX_COMPLETION_VALUES,
      },
    };
    return revision === '2025' ? completion : this.writer.modern(completion);
  }

  private async values(
    call: McpCall,
    target: CompletionTarget,
    argument: string,
    value: string,
    given: Record<string, unknown>,
    notFound: () => McpProtocolError,
  ): Promise<readonly string[]> {
    const id = completerId(target.id, argument);
    const completer = this.registry.callable(COMPLETER_KIND, id);
    if (!completer) {
      const closed = closedSetOf(
        target.definition.inputSchema?.properties?.[argument],
      );
      return closed ? startingWith(closed, value) : [];
    }
    const result = await this.calls.complete(call, completer, target.id, {
      argument,
      value,
      arguments: Object.fromEntries(
        Object.entries(given).filter(([, v]) => typeof v === 'string'),
      ),
    });
    if (!result.ok) {
      throw callFailureError(result.failure, result.text, notFound);
    }
    if (!Array.isArray(result.value)) {
      throw new Error(
        `The completer of '${argument}' of '${target.id}' returned no list of values.`,
      );
    }
    return result.value.map(String);
  }

  private promptTarget(name: string): CompletionTarget | undefined {
    const prompt = this.prompts.find(name);
    return (
      prompt && {
        id: name,
        definition: prompt,
        arguments: this.prompts.argumentsOf(prompt),
      }
    );
  }

  private resourceTarget(
    operation: OperationDefinition | undefined,
  ): CompletionTarget | undefined {
    return (
      operation?.asResource && {
        id: operation.id,
        definition: operation,
        arguments: operation.asResource.variables,
      }
    );
  }
}
