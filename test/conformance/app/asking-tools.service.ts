import { Injectable } from '@nestjs/common';
import { McpContent, McpResult } from '@nestops/mcp';
import { type InvocationContext, Operation } from '@nestops/operations';
import {
  DefaultsForm,
  ElicitationInput,
  EnumsForm,
  SamplingInput,
  UserInfoForm,
} from './asking.dto';

/**
 * The 2025 suite's tools that ask the client in the middle of the call
 * (`tools-call-elicitation`, `tools-call-sampling`, SEP-1034's defaults and
 * SEP-1330's enums): each form a DTO its `@Operation` lists, put as a
 * request on the call's stream. And the 2026-07-28 `server-stateless`
 * tool that requires sampling, refused with -32021 when the client lacks it.
 */
@Injectable()
export class AskingToolsService {
  /** `tools-call-elicitation`: the user's name and email, asked with the given message. */
  @Operation({
    id: 'asking.elicitation',
    readOnly: true,
    description: 'Asks the user for a user name and an email address.',
    input: ElicitationInput,
    elicits: [UserInfoForm],
  })
  async elicitation(
    input: ElicitationInput,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await context.elicit(UserInfoForm, input.message);
    return text(`User response: ${described(answer)}`);
  }

  /** `tools-call-sampling`: the client's model answers the given prompt. */
  @Operation({
    id: 'asking.sampling',
    readOnly: true,
    description: "Asks the client's model to answer a prompt.",
    input: SamplingInput,
    requires: ['sampling'],
  })
  async sampling(
    input: SamplingInput,
    context: InvocationContext,
  ): Promise<McpResult> {
    const message = await context.sample({
      messages: [
        { role: 'user', content: { type: 'text', text: input.prompt } },
      ],
      maxTokens: 100,
    });
    return text(`LLM response: ${textOf(message.content)}`);
  }

  /** `elicitation-sep1034-defaults`: a form whose fields all have defaults. */
  @Operation({
    id: 'asking.sep1034-defaults',
    readOnly: true,
    input: null,
    description: 'Asks for a form whose fields all have default values.',
    elicits: [DefaultsForm],
  })
  async defaults(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await context.elicit(DefaultsForm, 'Review your profile.');
    return text(`Elicitation completed: ${described(answer)}`);
  }

  /** `elicitation-sep1330-enums`: the five kinds of enum a form can ask. */
  @Operation({
    id: 'asking.sep1330-enums',
    readOnly: true,
    input: null,
    description: 'Asks for a form with single and multi-select enums.',
    elicits: [EnumsForm],
  })
  async enums(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const answer = await context.elicit(EnumsForm, 'Pick your options.');
    return text(`Elicitation completed: ${described(answer)}`);
  }

  /**
   * `server-stateless`'s undeclared-capability checks: a 2026-07-28 call
   * from a client without `sampling` is refused (-32021) before it runs.
   */
  @Operation({
    id: 'asking.missing-capability',
    readOnly: true,
    input: null,
    description: "Needs the client's model (sampling) to run.",
    requires: ['sampling'],
  })
  async missingCapability(
    _input: undefined,
    context: InvocationContext,
  ): Promise<McpResult> {
    const message = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hi.' } }],
      maxTokens: 20,
    });
    return text(`LLM response: ${textOf(message.content)}`);
  }
}

function text(value: string): McpResult {
  return McpResult.content(McpContent.text(value));
}

function described(answer: { action: string; content?: unknown }): string {
  return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

function textOf(content: { type: string; text?: unknown }): string {
  return typeof content.text === 'string' ? content.text : `(${content.type})`;
}
