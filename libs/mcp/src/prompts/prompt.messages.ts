import type { OperationDefinition } from '@nestops/operations';
import { PROMPT_NAME_PATTERN } from './prompt.constants.js';

export const INVALID_PROMPT = 'PROTOCOLS_VALIDATION_007';
export const UNKNOWN_COMPLETION_TARGET = 'PROTOCOLS_VALIDATION_008';

export const invalidPromptNameMessage = (prompt: OperationDefinition) =>
  `Prompt name ${JSON.stringify(prompt.id)} on ${prompt.source} does not match ${PROMPT_NAME_PATTERN.source}.`;

export const nonStringArgumentMessage = (
  prompt: OperationDefinition,
  argument: string,
) =>
  `Prompt '${prompt.id}' on ${prompt.source}: its argument '${argument}' is not a string property (MCP prompt arguments are strings); declare it with @IsString(), @IsIn([...]) of strings or another string rule.`;

export const unknownCompletedArgumentMessage = (
  target: string,
  argument: string,
  source: string,
  has: readonly string[],
) =>
  `@Complete('${target}', '${argument}') on ${source}: '${argument}' is not ${
    target.includes('.')
      ? `a variable of the resource template of operation '${target}'`
      : `an argument of prompt '${target}'`
  } (it has ${has.length > 0 ? has.map((name) => `'${name}'`).join(', ') : 'none'}).`;
