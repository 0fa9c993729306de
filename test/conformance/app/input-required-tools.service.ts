import { Injectable } from '@nestjs/common';
import { McpContent, McpResult, Prompt, PromptMessages } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import { ColorForm, NameForm, OkForm, PromptContextForm } from './asking.dto';

/**
 * The 2026-07-28 suite's `input-required-result-*` tools and prompt
 * (SEP-2322): each asks with `context.elicit`, `sample` or `roots` under the
 * key the scenario names. The first call is answered `input_required`; the
 * client's retry brings the answers and the sealed `requestState`, and the
 * method runs again from its start, this time to its result.
 */
@Injectable()
export class InputRequiredToolsService {
  /** `basic-elicitation`, `missing-input-response`, `result-type`: a name. */
  @Operation({
    id: 'input-required.elicitation',
    readOnly: true,
    input: null,
    description: "Asks the user's name, then greets them.",
    elicits: [NameForm],
  })
  async elicitation(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const name = await askName(context, 'user_name', 'What is your name?');
    return text(`Hello, ${name}!`);
  }

  /** `basic-sampling`: the client's model answers a question. */
  @Operation({
    id: 'input-required.sampling',
    readOnly: true,
    input: null,
    description: "Asks the client's model the capital of France.",
  })
  async sampling(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await sample(
      context,
      'capital_question',
      'What is the capital of France?',
      100,
    );
    return text(`The model says: ${answer}`);
  }

  /** `basic-list-roots`: the folders the client shares. */
  @Operation({
    id: 'input-required.list-roots',
    readOnly: true,
    input: null,
    description: 'Lists the folders the client shares.',
  })
  async listRoots(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const roots = await context.roots({ key: 'client_roots' });
    return text(`Client roots: ${roots.map((root) => root.uri).join(', ')}`);
  }

  /**
   * `request-state`: a confirmation. The retry runs only once the library
   * opened and checked its `requestState`, so the result says `state-ok`.
   */
  @Operation({
    id: 'input-required.request-state',
    readOnly: true,
    input: null,
    description: 'Asks for a confirmation, then reports the state checked.',
    elicits: [OkForm],
  })
  async requestState(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const ok = await askOk(context);
    return text(`state-ok: confirmed=${ok}`);
  }

  /** `tampered-state`: as `request-state`; a changed `requestState` is -32602. */
  @Operation({
    id: 'input-required.tampered-state',
    readOnly: true,
    input: null,
    description: 'Asks for a confirmation; its requestState is sealed.',
    elicits: [OkForm],
  })
  async tamperedState(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const ok = await askOk(context);
    return text(`state-ok: confirmed=${ok}`);
  }

  /** `multiple-input-requests`: a form, the model and the roots, in one round. */
  @Operation({
    id: 'input-required.multiple-inputs',
    readOnly: true,
    input: null,
    description: 'Asks a name, a greeting and the roots at once.',
    elicits: [NameForm],
  })
  async multipleInputs(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const [name, greeting, roots] = await Promise.all([
      askName(context, 'user_name', 'What is your name?'),
      sample(context, 'greeting', 'Generate a greeting', 50),
      context.roots({ key: 'client_roots' }),
    ]);
    return text(`${greeting} ${name}; roots: ${roots.length}`);
  }

  /** `multi-round`: the second question is asked once the first is answered. */
  @Operation({
    id: 'input-required.multi-round',
    readOnly: true,
    input: null,
    description: 'Asks a name, then a favourite colour.',
    elicits: [NameForm, ColorForm],
  })
  async multiRound(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const name = await askName(context, 'step1', 'Step 1: What is your name?');
    const answer = await context.elicit(
      ColorForm,
      'Step 2: What is your favorite color?',
      { key: 'step2' },
    );
    const color = answer.action === 'accept' ? answer.content.color : 'none';
    return text(`${name} likes ${color}.`);
  }

  /** `capability-check`: asks only what the client declared it can answer. */
  @Operation({
    id: 'input-required.capabilities',
    readOnly: true,
    input: null,
    description: 'Asks the client whatever it declared it can answer.',
    elicits: [NameForm],
  })
  async capabilities(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const asked: Promise<string>[] = [];
    if (context.canAsk('elicitation')) {
      asked.push(askName(context, 'user_name', 'What is your name?'));
    }
    if (context.canAsk('sampling')) {
      asked.push(sample(context, 'greeting', 'Generate a greeting', 50));
    }
    if (context.canAsk('roots')) {
      const roots = context.roots({ key: 'client_roots' });
      asked.push(roots.then((list) => `${list.length} roots`));
    }
    const answers = await Promise.all(asked);
    return text(`Answers: ${answers.join('; ') || 'nothing to ask'}`);
  }

  /** `non-tool-request`: a prompt asks too (prompts/get). */
  @Prompt({
    name: 'test_input_required_result_prompt',
    description: 'Asks the user what context the prompt should use.',
    elicits: [PromptContextForm],
  })
  async prompt(
    _input: undefined,
    context: InvocationContext,
  ): Promise<PromptMessages> {
    const answer = await context.elicit(
      PromptContextForm,
      'What context should the prompt use?',
      { key: 'user_context' },
    );
    const used = answer.action === 'accept' ? answer.content.context : 'none';
    return new PromptMessages().user(`Answer using this context: ${used}`);
  }
}

async function askName(
  context: InvocationContext,
  key: string,
  message: string,
): Promise<string> {
  const answer = await context.elicit(NameForm, message, { key });
  return answer.action === 'accept' ? answer.content.name : 'stranger';
}

async function askOk(context: InvocationContext): Promise<boolean> {
  const answer = await context.elicit(OkForm, 'Please confirm', {
    key: 'confirm',
  });
  return answer.action === 'accept' && answer.content.ok;
}

async function sample(
  context: InvocationContext,
  key: string,
  prompt: string,
  maxTokens: number,
): Promise<string> {
  const message = await context.sample(
    {
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens,
    },
    { key },
  );
  const { text: said } = message.content as { text?: unknown };
  return typeof said === 'string' ? said : `(${message.content.type})`;
}

function text(value: string): McpResult {
  return McpResult.content(McpContent.text(value));
}
